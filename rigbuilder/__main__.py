from rigbuilder.cli import main

raise SystemExit(main())

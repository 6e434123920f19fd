"""The parts catalog: validation, SQLite storage (SQLModel), user parts. Never imports Qt."""

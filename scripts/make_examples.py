"""Writes resources/examples/ (the shipped example builds, rigbuilder.files.examples) from the seeds' builds
in tests/builds.py. Run from the checkout: PYTHONPATH=. python scripts/make_examples.py; then
`rigbuilder check` each .rig (no errors) and `rigbuilder cluster check` the .rigcluster."""
from pathlib import Path
from rigbuilder.domain.build import GpuPlacement, Settings, PartCount
from rigbuilder.domain.cluster import ClusterPlan, Machine, Network, NicPlacement
from rigbuilder.files import buildfile, clusterfile
from tests.builds import frank_2070, x99_4x3090, seed003_node, RTX3090_BLOWER, CONNECTX3_40G

D = Path("resources/examples")
b = frank_2070(1)
b.name = "One RTX 2070 now, four later (Threadripper 1900X)"
b.settings = Settings(region="EU-16A", price_per_kwh=0.30, currency="EUR", budget=2000)
b.notes = ("Question: a deep-learning workstation for about 2,000 EUR: one GPU now, room for four later? "
           "The parts a buyer named in January 2019: Threadripper 1900X, X399 AORUS PRO (x16/x16/x8/x8 for four "
           "cards), 16 GB of RAM, a 1000 W Platinum power supply, one RTX 2070.")
buildfile.save(b, D / "workstation-2000-eur.rig")

b = x99_4x3090(250, RTX3090_BLOWER)
b.name = "Four used RTX 3090 on X99, limited to 250 W"
b.settings = Settings(region="US-15A", price_per_kwh=0.16, currency="USD", condition="used")
b.notes = ("Question: four used RTX 3090 on a used X99 board and Xeon: does it fit, and on one wall socket? "
           "Blower cards in every other slot, each limited to 250 W (350 W stock), on a 1600 W power supply.")
buildfile.save(b, D / "x99-four-used-rtx-3090.rig")

b = x99_4x3090(None, "gpu-nvidia-rtx-4090-fe", region="EU-16A")
b.name = "One new RTX 4090"
b.gpus = [GpuPlacement("gpu-nvidia-rtx-4090-fe", 1)]
b.settings = Settings(region="EU-16A", price_per_kwh=0.30, currency="EUR")
b.notes = "Question: one new RTX 4090 or two used RTX 3090: which should a buyer get? This is the one RTX 4090."
buildfile.save(b, D / "one-rtx-4090.rig")

b = x99_4x3090(None, RTX3090_BLOWER, region="EU-16A")
b.name = "Two used RTX 3090"
b.gpus = [GpuPlacement(RTX3090_BLOWER, 1), GpuPlacement(RTX3090_BLOWER, 5)]
b.settings = Settings(region="EU-16A", price_per_kwh=0.30, currency="EUR", condition="used")
b.notes = "Question: one new RTX 4090 or two used RTX 3090: which should a buyer get? These are the two RTX 3090."
buildfile.save(b, D / "two-used-rtx-3090.rig")

b = seed003_node(memory_kits=2)
b.name = "Cluster node: two GTX Titan on X99"
b.notes = ("Question: a small cluster of two machines on 40 Gbit/s: faster than one machine? One of the two "
           "machines; the cluster plan places its network card.")
buildfile.save(b, D / "cluster-node.rig")
plan = ClusterPlan("Two machines on 40 Gbit/s", (Machine("node", "cluster-node.rig", 2,
                   (NicPlacement(CONNECTX3_40G, "PCIE5", 1),)),), Network("switch", "roce"), circuits=2,
                   workload="cnn-training",
                   notes="Question: a small cluster of two machines on 40 Gbit/s: faster than one machine?")
clusterfile.save(plan, D / "two-machine-cluster.rigcluster")

"""The seeds' builds, from real catalog parts (shared by tests and benchmarks)."""
from __future__ import annotations

from rigbuilder.domain.build import Build, GpuPlacement, PartCount, Settings, StorageItem

ZOTAC_2070 = "gpu-zotac-rtx-2070-amp"
RTX3090_BLOWER = "gpu-asus-rtx-3090-turbo"
RTX3090_FE = "gpu-nvidia-rtx-3090-fe"


def frank_2070(n_gpus: int = 1, positions=(1, 3, 5, 7)) -> Build:
    """Seed 000: Frank's Threadripper 1900X workstation with one RTX 2070, growing to four."""
    return Build(
        name="Seed 000: Frank's RTX 2070 workstation" + (f" ({n_gpus} GPUs)" if n_gpus > 1 else ""),
        motherboard="mb-gigabyte-x399-aorus-pro",
        cpu="cpu-amd-threadripper-1900x",
        cooler="cool-arctic-freezer-33-tr",
        case="case-corsair-750d-airflow",
        psus=["psu-evga-supernova-1000-p2"],
        memory=[PartCount("mem-corsair-vengeance-lpx-2x8gb-ddr4-3000", 1)],
        storage=[StorageItem("sto-samsung-970-evo-500gb"), StorageItem("sto-seagate-barracuda-3tb")],
        gpus=[GpuPlacement(ZOTAC_2070, p) for p in positions[:n_gpus]],
        settings=Settings(region="EU-16A", price_per_kwh=0.30, currency="EUR"),
    )


def x99_4x3090(limit_w: float | None = 280, gpu: str = RTX3090_BLOWER, region: str = "US-15A") -> Build:
    """Seed 001: used ASRock X99 WS-E + Xeon E5-2697 v4 with 4x RTX 3090 limited by 20%."""
    return Build(
        name="Seed 001: used X99 with 4x RTX 3090",
        motherboard="mb-asrock-x99-ws-e",
        cpu="cpu-intel-xeon-e5-2697-v4",
        cooler="cool-noctua-nh-u14s",
        case="case-phanteks-enthoo-719",
        psus=["psu-evga-supernova-1600-t2"],
        memory=[PartCount("mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", 2)],
        storage=[StorageItem("sto-samsung-970-evo-500gb")],
        gpus=[GpuPlacement(gpu, p, power_limit_w=limit_w) for p in (1, 3, 5, 7)],
        settings=Settings(region=region, price_per_kwh=0.16, currency="USD"),
    )


TITAN_6GB = "gpu-odb-asus-gtxtitan-6gd5-geforce-gtx-titan-6-gb-fa99adc5"
CONNECTX3_40G = "nic-mellanox-connectx-3-mcx314a-bcct"
X540_10G = "nic-intel-x540-t2"


def seed003_node(gpu: str = TITAN_6GB, memory_kits: int = 1) -> Build:
    """Seed 003: one node of Dettmers' small cluster: a PCIe 3.0 board (X99, PCIe switches) with two
    6 GB GTX Titans; the network card goes in a free slot (the cluster plan places it)."""
    return Build(
        name="Seed 003: cluster node",
        motherboard="mb-asrock-x99-ws-e",
        cpu="cpu-intel-xeon-e5-1650-v4",
        cooler="cool-noctua-nh-u14s",
        case="case-phanteks-enthoo-719",
        psus=["psu-evga-supernova-1000-p2"],
        memory=[PartCount("mem-corsair-vengeance-lpx-2x8gb-ddr4-3000", memory_kits)],
        storage=[StorageItem("sto-samsung-970-evo-500gb")],
        gpus=[GpuPlacement(gpu, p) for p in (1, 3)],
        settings=Settings(region="US-15A", price_per_kwh=0.16, currency="USD"),
    )

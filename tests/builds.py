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

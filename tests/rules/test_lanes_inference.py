"""lanes.width for an inference build (issue 37): an x4 link says what it costs inference (loading the weights,
the traffic between the cards per token), not the training batch figure; a note where that is next to nothing."""
from __future__ import annotations

from rigbuilder.domain.build import Build, GpuPlacement, PartCount, Settings, StorageItem
from rigbuilder.domain.findings import Severity
from rigbuilder.models.workloads import workload
from rigbuilder.rules.engine import run_checks
from rigbuilder.rules.lanes import for_workload


def two_5090s_one_on_x4() -> Build:
    """The 10,000 USD variation's answer: two RTX 5090 on an X870E board, the second card's slot at x4."""
    return Build(motherboard="mb-msi-mpg-x870e-carbon-wifi", cpu="cpu-amd-ryzen-7-7700x", cooler="cool-noctua-nh-u14s",
                 case="case-phanteks-enthoo-719", psus=["psu-evga-supernova-1600-t2"],
                 memory=[PartCount("mem-corsair-vengeance-lpx-4x16gb-ddr4-3200", 1)],
                 storage=[StorageItem("sto-samsung-970-evo-500gb")],
                 gpus=[GpuPlacement("gpu-nvidia-rtx-5090-fe", p) for p in (2, 6)],
                 settings=Settings(region="US-15A", currency="USD"))


def _width(fs):
    return [f for f in fs if f.code == "lanes.width"]


def test_an_x4_link_of_an_inference_build_says_what_it_costs_inference(index):
    b = two_5090s_one_on_x4()
    fs = run_checks(b, index)
    [train] = _width(fs)
    assert train.severity is Severity.WARNING and "ImageNet" in str(train.message)  # the training figure, as before
    llama = workload("llm-inference", 70e9, precision="int4")
    [inf] = _width(for_workload(b, fs, index, llama))
    text = str(inf.message)
    assert "ImageNet" not in text and "For inference" in text, text
    # 70B at 4 bits, about 40 GB of weights, half on this card: some 20 GB over x4 Gen5 (15.8 GB/s)
    assert "GB, loads in about 1." in text and "0.3 s at x16" in text, text
    assert "KB per token" in text  # llama.cpp splits the layers: one activation vector per token
    assert inf.severity is Severity.INFO  # microseconds per token: nothing to speak of while generating
    assert [f for f in for_workload(b, fs, index, llama) if f.code != "lanes.width"] == \
        [f for f in fs if f.code != "lanes.width"]  # the other findings as they were


def test_tensor_parallel_inference_and_training_are_judged_as_before_or_warned(index):
    b = two_5090s_one_on_x4()
    fs = run_checks(b, index)
    vllm = workload("llm-inference", 70e9, precision="awq-4bit-g128", engine="vllm")
    [inf] = _width(for_workload(b, fs, index, vllm))
    assert "all-reduces per layer" in str(inf.message)
    training = workload("qlora", 8e9)
    assert for_workload(b, fs, index, training) == list(fs)
    assert for_workload(b, fs, index, None) == list(fs)

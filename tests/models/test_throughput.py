

def test_shipped_ratios_read_the_gpu_files_only_and_equal_the_whole_catalog_s(shipped):
    """The ratios a scorer without a catalog uses are read from the GPU files alone (a search's first
    run validated every kind for them); they are those of the whole validated catalog."""
    from rigbuilder.domain.parts import GPU
    from rigbuilder.models.throughput import TensorRatios, shipped_ratios

    whole = TensorRatios(p for p in shipped[0] if isinstance(p, GPU))
    assert shipped_ratios().ratios == whole.ratios and len(whole.ratios) > 50

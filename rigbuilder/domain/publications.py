"""The publications behind rigbuilder's rules and models: one place for every citation.

Findings and estimates cite them by their short form ("Makropoulos 2023"); the Rule Codes help
and the reports list them in full (author, title, year, link).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Publication:
    short: str  # how a finding cites it, e.g. "Makropoulos 2023"
    author: str
    title: str
    year: str
    where: str = ""  # blog, magazine
    link: str = ""  # empty where no address is known

    def full(self) -> str:
        parts = [self.author, f"\u201c{self.title}\u201d"]
        if self.where:
            parts.append(self.where)
        parts.append(self.year)
        if self.link:
            parts.append(self.link)
        return ", ".join(parts)


FRANK_2019 = Publication(
    "Frank 2019", "Frank", "Bau meiner extendable Deep Learning Machine \u2013 \u201eDeep Al\u201c",
    "January 2019", "personal blog (German)")
MAKROPOULOS_2023 = Publication(
    "Makropoulos 2023", "Antonis Makropoulos", "How to Build a Multi-GPU System for Deep Learning in 2023",
    "September 2023", "Towards Data Science",
    "https://towardsdatascience.com/how-to-build-a-multi-gpu-system-for-deep-learning-in-2023-e5bbb905d935/")
DETTMERS_2019 = Publication(
    "Dettmers 2019", "Tim Dettmers", "Which GPU(s) to Get for Deep Learning", "April 2019", "timdettmers.com",
    "https://timdettmers.com/2019/04/03/which-gpu-for-deep-learning/")
DETTMERS_2014 = Publication(
    "Dettmers 2014", "Tim Dettmers", "How To Build and Use a Multi GPU System for Deep Learning",
    "September 2014", "timdettmers.com",
    "https://timdettmers.com/2014/09/21/how-to-build-and-use-a-multi-gpu-system-for-deep-learning/")

PUBLICATIONS: tuple[Publication, ...] = (FRANK_2019, MAKROPOULOS_2023, DETTMERS_2019, DETTMERS_2014)

"""The numbers a rules page writes, read the way its language writes them, so an English page
and its translation can be compared figure by figure ("2,000" and "48.6" in English are
"2.000" and "48,6" in German and Spanish)."""
from __future__ import annotations

import re

# A number as each language writes it: grouped in thousands or not, maybe with decimals.
ENGLISH = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
OTHERS = re.compile(r"\d{1,3}(?:[.\u00a0\u202f]\d{3})+(?:,\d+)?|\d+(?:,\d+)?")


def numbers(text: str, lang: str) -> list[str]:
    """Every number in `text` written plainly ("2000", "48.6"), as the language `lang` writes
    it: English groups thousands with a comma and writes a decimal point; German and Spanish
    group with a point (or a no-break space) and write a decimal comma."""
    if lang == "en":
        return [found.replace(",", "") for found in ENGLISH.findall(text)]
    return [re.sub(r"[.\u00a0\u202f]", "", found).replace(",", ".")
            for found in OTHERS.findall(text)]


def table_rows(page: str, lang: str) -> list[list[str]]:
    """The numbers of each Markdown table row of `page` (rows without numbers left out)."""
    rows = (numbers(line, lang) for line in page.splitlines() if line.startswith("|"))
    return [row for row in rows if row]

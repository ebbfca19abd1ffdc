"""Pictures and reports for people: the SVG deal diagram and charts
(:mod:`.svg`), the self-contained HTML reports of ``prefdd analyze``,
``whist`` and ``bid`` (:mod:`.html`, Jinja2 templates in ``templates/``),
and their texts in English and Russian (:mod:`.i18n`)."""
from .i18n import LANGUAGES, texts
from .svg import bar_chart_svg, deal_svg, estimate_chart_svg

__all__ = ["LANGUAGES", "texts", "deal_svg", "bar_chart_svg", "estimate_chart_svg", "write_report"]


def write_report(path: str, html: str) -> None:
    """Write a report file (UTF-8)."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(html)

"""Helpers of the notebook suite: HTML read back with ``html.parser``,
checking that every tag closes in order."""

from __future__ import annotations

from html.parser import HTMLParser

#: Tags without an end tag.
VOID = {"br", "hr", "img", "input", "meta", "link", "col", "wbr"}


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.tags.append(tag)
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def read_html(markup: str) -> tuple[list[str], str]:
    """The tags of well-formed ``markup`` and its text, cells separated by
    ``|``; fails if a tag is left open or closed out of order."""
    assert isinstance(markup, str) and markup
    reader = _Reader()
    reader.feed(markup)
    reader.close()
    assert reader.open == [], f"left open: {reader.open}"
    return reader.tags, "|".join(reader.text)

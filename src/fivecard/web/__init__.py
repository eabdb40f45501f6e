"""The web layer (``fivecard serve``, the optional ``web`` extra): Poker vs
Dealer and a hand checker in the browser, over a JSON API. It holds no poker
logic: :mod:`fivecard.web.app` translates HTTP to library calls,
:mod:`fivecard.web.store` keeps games in SQLite."""

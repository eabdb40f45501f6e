"""The web layer (``fivecard serve``, the optional ``web`` extra): Poker vs
Dealer, a hand checker and tables for friends in the browser, over a JSON
API. It holds no poker logic: :mod:`fivecard.web.app` translates HTTP to library calls,
:mod:`fivecard.web.store` keeps games in SQLite."""

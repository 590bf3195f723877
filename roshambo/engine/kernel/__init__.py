"""The scoring kernel: packed integer fields, the fast path every scoreboard shares (the
ensemble's strategy scores, the counting windows, the periods), and their plain twin."""

from .packed import PackedFields, check_layout
from .plain import PlainFields

__all__ = ["PackedFields", "PlainFields", "check_layout"]

"""Boardweaver's browser client: the Python UI that runs in the tab under PyScript.

`dom` is the only module that touches the browser; `session`, `board` and `texts` are plain Python.
"""

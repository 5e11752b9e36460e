"""Boardweaver's browser client: the Python UI that runs in the tab under PyScript.

`dom` is the only module that imports the browser (`js`, `pyodide`); `elements`, `focus`, `tab`, `storage` and
`network` reach the page through it. `session`, `board` (with `pieces`, `faces`), `panels` and `texts` are plain
Python.
"""

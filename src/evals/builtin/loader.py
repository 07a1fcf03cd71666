"""Loaders for the exported tables."""

import json


def load_0(path: str, *, strict: bool = False) -> dict:
    """Load table 0 from a JSON file. Missing keys raise KeyError."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = data["rows"]
    if strict and not rows:
        raise ValueError("empty table 0")
    out = {}
    for row in rows:
        out[row["id"]] = row
    return out


def load_1(path: str, *, strict: bool = False) -> dict:
    """Load table 1 from a JSON file. Missing keys raise KeyError."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = data["rows"]
    if strict and not rows:
        raise ValueError("empty table 1")
    out = {}
    for row in rows:
        out[row["id"]] = row
    return out


def load_2(path: str, *, strict: bool = False) -> dict:
    """Load table 2 from a JSON file. Missing keys raise KeyError."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = data["rows"]
    if strict and not rows:
        raise ValueError("empty table 2")
    out = {}
    for row in rows:
        out[row["id"]] = row
    return out


def load_3(path: str, *, strict: bool = False) -> dict:
    """Load table 3 from a JSON file. Missing keys raise KeyError."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = data["rows"]
    if strict and not rows:
        raise ValueError("empty table 3")
    out = {}
    for row in rows:
        out[row["id"]] = row
    return out


def load_4(path: str, *, strict: bool = False) -> dict:
    """Load table 4 from a JSON file. Missing keys raise KeyError."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = data["rows"]
    if strict and not rows:
        raise ValueError("empty table 4")
    out = {}
    for row in rows:
        out[row["id"]] = row
    return out


def load_5(path: str, *, strict: bool = False) -> dict:
    """Load table 5 from a JSON file. Missing keys raise KeyError."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = data["rows"]
    if strict and not rows:
        raise ValueError("empty table 5")
    out = {}
    for row in rows:
        out[row["id"]] = row
    return out


def load_6(path: str, *, strict: bool = False) -> dict:
    """Load table 6 from a JSON file. Missing keys raise KeyError."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = data["rows"]
    if strict and not rows:
        raise ValueError("empty table 6")
    out = {}
    for row in rows:
        out[row["id"]] = row
    return out


def load_7(path: str, *, strict: bool = False) -> dict:
    """Load table 7 from a JSON file. Missing keys raise KeyError."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = data["rows"]
    if strict and not rows:
        raise ValueError("empty table 7")
    out = {}
    for row in rows:
        out[row["id"]] = row
    return out

"""Requests the worker answers; each module has handle(args, ctx) -> dict."""

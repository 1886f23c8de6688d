"""Decoding request bodies the way Drupal's JSON decoder reacts to them."""
import json

from . import xmlenc

from .denormalize import HttpError


def json_body(ctx, empty_message='No entity content received.'):
    raw = ctx.req.body
    if not raw or not raw.strip():
        raise HttpError(400, empty_message)
    try:
        return json.loads(raw.decode('utf-8'))
    except (ValueError, UnicodeDecodeError):
        raise HttpError(400, 'Syntax error')


def user_body_or_500(ctx):
    """The user controllers decode the body in the request's format (json or xml) and do not catch
    decode errors: Drupal answers 500."""
    raw = ctx.req.body
    try:
        if ctx.fmt == 'xml':
            return xmlenc.decode(raw)
        data = json.loads(raw.decode('utf-8')) if raw and raw.strip() else None
    except (ValueError, UnicodeDecodeError):
        data = None
    if data is None:
        raise HttpError(500)
    return data

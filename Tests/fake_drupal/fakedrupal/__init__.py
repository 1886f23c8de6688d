"""A fake Drupal 10 site (core REST, user JSON routes, Views REST export) for tests.

Standard library only. The entry point is ../fake_drupal.py.
"""

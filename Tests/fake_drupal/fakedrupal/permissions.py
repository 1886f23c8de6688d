"""Roles and permissions as exported from the recorded site (site-config.yml)."""

ANONYMOUS = {
    'access comments', 'access content', 'access site-wide contact form',
    'restful post user_registration', 'search content', 'use text format restricted_html',
}
AUTHENTICATED = {
    'access comments', 'access content', 'access shortcuts', 'access site-wide contact form',
    'delete own files', 'post comments', 'search content', 'skip comment approval',
    'use text format basic_html',
}
ROLE_PERMISSIONS = {
    'content_editor': {
        'access administration pages', 'access comments', 'access content',
        'access content overview', 'access contextual links', 'access files overview',
        'access toolbar', 'administer url aliases', 'create article content',
        'create page content', 'create terms in tags', 'create url aliases',
        'delete article revisions', 'delete own article content', 'delete own files',
        'delete own page content', 'delete page revisions', 'edit own article content',
        'edit own comments', 'edit own page content', 'edit terms in tags', 'post comments',
        'revert all revisions', 'skip comment approval', 'view all revisions',
        'view own unpublished content', 'view the administration theme',
    },
    'administrator': set(),  # is_admin: every permission
}


class Account:
    """Who is making the request: uid 0 is anonymous."""

    def __init__(self, uid=0, roles=()):
        self.uid = uid
        self.roles = tuple(roles)

    @property
    def authenticated(self):
        return self.uid != 0

    @property
    def is_admin(self):
        return 'administrator' in self.roles

    def has(self, permission):
        if self.is_admin:
            return True
        perms = AUTHENTICATED if self.authenticated else ANONYMOUS
        if permission in perms:
            return True
        return any(permission in ROLE_PERMISSIONS.get(r, ()) for r in self.roles)


ANON = Account()

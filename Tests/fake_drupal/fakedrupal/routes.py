"""The route table: path pattern -> Drupal routes registered on that path."""
from . import oauth, oauth_code, pages, rest, router, users, uploads, views
from .app import Route
from .pages import static_file  # noqa: F401  (used by app)

JSON_CT = ['application/json']
USER_FORMATS = ['json', 'xml']   # serialization adds every serializer format to user routes


def entity_routes(et, path_template, html=True, methods=('GET', 'DELETE', 'PATCH')):  # recorded order (182)
    out = []
    if html:
        out.append(Route('entity.%s.canonical' % et, ['GET', 'POST'], pages.entity_page,
                         entity=et, access=pages.entity_page_access))
    controllers = {'GET': (rest.get, rest.view_access), 'PATCH': (rest.patch, rest.update_access),
                   'DELETE': (rest.delete, rest.delete_access)}
    for m in methods:
        handler, check = controllers[m]
        out.append(Route('rest.entity.%s.%s' % (et, m), [m], handler, formats=['json'],
                         content_types=JSON_CT if m == 'PATCH' else None, rest=True, csrf=True,
                         entity=et, access=check, param_path=path_template))
    return out


def create_route(et):
    return Route('rest.entity.%s.POST' % et, ['POST'], rest.post(et), formats=['json'],
                 content_types=JSON_CT, rest=True, csrf=True, access=rest.create_access(et))


def build_routes():
    front = Route('view.frontpage.page_1', ['GET', 'POST'], pages.front_page, formats=['html'])
    return [
        (r'/', [front]),
        (r'/node', [front, create_route('node')]),
        (r'/node/(\d+)', entity_routes('node', '/node/{node}')),
        (r'/comment', [create_route('comment')]),
        (r'/comment/(\d+)', entity_routes('comment', '/comment/{comment}')),
        (r'/taxonomy/term', [create_route('taxonomy_term')]),
        (r'/taxonomy/term/(\d+)', entity_routes('taxonomy_term', '/taxonomy/term/{taxonomy_term}')),
        (r'/entity/user', [create_route('user')]),
        (r'/user/login', [
            Route('user.login', ['GET', 'POST'], pages.form('Log in', ['name', 'pass'])),
            Route('user.login.http', ['POST'], users.login, formats=USER_FORMATS,
                  access=users.only_anonymous)]),
        (r'/user/login_status', [
            Route('user.login_status.http', ['GET'], users.login_status, formats=USER_FORMATS)]),
        (r'/user/logout', [
            Route('user.logout', ['GET', 'POST'], users.logout_html, access=users.only_authenticated),
            Route('user.logout.http', ['POST'], users.logout, formats=USER_FORMATS,
                  access=users.logout_token_check)]),
        (r'/user/password', [
            Route('user.pass', ['GET', 'POST'], pages.form('Reset your password', ['name'])),
            Route('user.pass.http', ['POST'], users.password, formats=USER_FORMATS)]),
        (r'/user/register', [
            Route('user.register', ['GET', 'POST'], pages.form('Create new account', ['mail', 'name'])),
            Route('rest.user_registration.POST', ['POST'], users.register, formats=['json'],
                  content_types=JSON_CT, rest=True, csrf=True, access=users.register_access,
                  oauth2=False)]),
        (r'/user/(\d+)', entity_routes('user', '/user/{user}')),
        (r'/session/token', [Route('system.csrftoken', ['GET'], users.session_token)]),
        (r'/entity/file/(\d+)', entity_routes('file', '/entity/file/{file}', html=False, methods=('GET',))),
        (r'/file/upload/([a-z0-9_]+)/([a-z0-9_]+)/([a-z0-9_]+)', [
            Route('rest.file.upload.POST', ['POST'], uploads.upload, formats=['json'],
                  content_types=['application/octet-stream'], rest=True, csrf=True,
                  access=uploads.upload_access)]),
        (r'/system/files/([A-Za-z0-9._/-]+)', [
            Route('system.files', ['GET'], pages.private_file, access=pages.private_file_access)]),
        (r'/oauth/token', [
            Route('oauth2_token.token', ['POST'], oauth.token, when=lambda store: store.oauth_installed())]),
        (r'/oauth/authorize', [
            # GET, and POST for the consent form; no _auth: cookie and Bearer, not Basic.
            Route('oauth2_token.authorize', ['GET', 'POST'], oauth_code.authorize,
                  when=lambda store: store.oauth_installed())]),
        (r'/router/translate-path', [
            Route('decoupled_router.path_translation', ['GET'], router.translate_path, formats=['json'],
                  when=lambda store: store.site == 'extended')]),
        (r'/api/articles', [
            Route('view.api_articles.rest_export_1', ['GET'], views.api_articles, formats=['json'],
                  rest=True, access=views.view_access, oauth2=False)]),
        (r'/api/articles-all', [
            Route('view.api_articles.rest_export_2', ['GET'], views.api_articles_all, formats=['json'],
                  rest=True, access=views.view_access, oauth2=False)]),
    ]

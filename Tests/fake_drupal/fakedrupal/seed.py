"""Extra content on demand (POST /__fake/seed), e.g. for long collection walks.

Articles "Bulk 1", "Bulk 2", ... (numbering goes on across calls), published,
owned by admin, tagged alpha and beta in turn, like the recorded site's
"Bulk" articles of 190. Made through the store, so core REST, Views and
JSON:API all see them.
"""
MAX_ARTICLES = 100000


def seed_articles(store, count):
    made = [n for n in store.entities['node'].values()
            if n['title'] and str(n['title'][0]['value']).startswith('Bulk ')]
    first = len(made) + 1
    nids = []
    for k in range(first, first + count):
        nid = store.create_node({
            'type': [{'target_id': 'article'}], 'title': [{'value': 'Bulk %d' % k}],
            'body': [{'value': '<p>Bulk article %d</p>' % k, 'format': 'basic_html', 'summary': ''}],
            'field_tags': [{'target_id': 1 + k % 2}],
        }, uid=1)
        node = store.entities['node'][nid]
        stats = node['comment'][0]          # as after a real save: the statistics row exists
        stats['last_comment_timestamp'] = node['created'][0]['value']
        stats['last_comment_uid'] = 1
        nids.append(nid)
    return nids

#!/usr/bin/env python3
"""An OAuth 2 password-grant session (simple_oauth) that survives its token's expiry, and French
reads and an update on the same session (language module, /fr prefix).

    DRUPAL_BASE_URL=http://127.0.0.1:8080 python3 oauth_french.py [--force-expiry]

The consumer is DRUPAL_OAUTH_CLIENT_ID / DRUPAL_OAUTH_CLIENT_SECRET (default sdk-client /
sdk-secret), the user DRUPAL_USER / DRUPAL_PASSWORD (default admin / admin). --force-expiry is
for the bundled fake server (--site extended): it asks the fake (POST /__fake/oauth-expire) to
expire every token at once, as the site does after the token's lifetime, so that the next request
is refused with a 401 and the library refreshes the token and retries by itself. The French title
of node 1 is changed and then put back.

Exit codes: 0 success, 1 a Drupal or network error, 2 bad configuration.
"""
import os
import sys

import drupalsdk


def show(label, entity):
    print("%-34s node %s: %r (langcode %s)" % (label, entity["nid"][0]["value"], entity["title"][0]["value"],
                                              entity["langcode"][0]["value"]))


def french_title(title):
    return {"type": [{"target_id": "article"}], "title": [{"value": title}]}


def main() -> int:
    base_url = os.environ.get("DRUPAL_BASE_URL")
    if not base_url:
        print("oauth_french: set DRUPAL_BASE_URL (e.g. http://127.0.0.1:8080)", file=sys.stderr)
        return 2
    token_requests = []
    try:
        with drupalsdk.Client(base_url, timeout=30, ca_file=os.environ.get("DRUPAL_CA_FILE") or None) as client:
            # Events never carry a token or a secret: count the token endpoint's answers.
            client.on("request_finish", lambda e: token_requests.append(e) if e.path == "/oauth/token" else None)
            client.on("request_finish", lambda e: print("%-34s %s %s -> 401: refresh the token, retry once"
                                                        % ("  (the site refused it)", e.method, e.path))
                      if e.status == 401 else None)

            # 1. OAuth 2, password grant: the library fetches, refreshes and rotates the tokens.
            client.set_oauth(os.environ.get("DRUPAL_OAUTH_CLIENT_ID", "sdk-client"),
                             os.environ.get("DRUPAL_OAUTH_CLIENT_SECRET", "sdk-secret"),
                             username=os.environ.get("DRUPAL_USER", "admin"),
                             password=os.environ.get("DRUPAL_PASSWORD", "admin"))
            print("%-34s %s" % ("OAuth token (no token printed):", client.oauth_authenticate()))
            show("read with the token:", client.get("node", 1))

            # 2. The token expires: the next request is refused once, refreshed and retried.
            forced = "--force-expiry" in sys.argv[1:]
            if forced:
                client.request("POST", "/__fake/oauth-expire", format=False)
                print("%-34s every token expired on the site (POST /__fake/oauth-expire)" % "forced expiry:")
                show("read after the expiry:", client.get("node", 1))
            else:
                show("read again (the same token):", client.get("node", 1))
            print("%-34s %d (%s)" % ("token requests so far:", len(token_requests),
                                     "the password grant, then one refresh" if forced else "the password grant"))

            # 3. French, on the same session: reads, the fallback, an update of the translation.
            french = client.in_language("fr")
            show("French read:", french.get("node", 1))
            fallback = client.get("node", 2, language="fr")
            show("French read (no translation):", fallback)
            saved = french.get("node", 1)["title"][0]["value"]
            try:
                show("updated the French translation:",
                     french.update("node", 1, french_title("Article 1 FR (modifié depuis Python)")))
                show("the English original:", client.get("node", 1))
                if fallback["langcode"][0]["value"] == "fr":
                    # This site has one: the refusal below cannot be shown without changing it.
                    print("%-34s skipped: node 2 has a French translation here" % "French update of node 2:")
                else:
                    try:
                        french.update("node", 2, french_title("Titre"))   # no French translation: refused
                    except drupalsdk.DrupalError as error:
                        print("%-34s %s: %s" % ("French update of node 2:", error.code, error.message))
            finally:
                # Put back even after a failure above: the site keeps its French title.
                show("updated the French translation:", french.update("node", 1, french_title(saved)))
            print("%-34s %d" % ("token requests in all:", len(token_requests)))
    except drupalsdk.AuthenticationError as error:
        print("oauth_french: the site refused the OAuth credentials: %s (%s)" % (error.message, error.oauth_error),
              file=sys.stderr)
        return 1
    except drupalsdk.NetworkError as error:
        print("oauth_french: cannot reach %s: %s" % (base_url, error.message), file=sys.stderr)
        return 1
    except drupalsdk.DrupalError as error:
        print("oauth_french: %s" % error, file=sys.stderr)
        return 1
    print("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A stand-in for a person's browser, for the OAuth desktop example's test (run as BROWSER): it
logs in to the fake site as the editor and opens the authorize URL it is given, following the
site's redirect to the example's loopback listener, as a browser would."""
import http.cookiejar
import json
import sys
import urllib.request

url = sys.argv[1]
site = url.split("/oauth/authorize", 1)[0]
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
login = urllib.request.Request(site + "/user/login?_format=json", data=json.dumps({"name": "editor", "pass": "editor"}).encode(),
                               headers={"Content-Type": "application/json"})
opener.open(login, timeout=20).read()
opener.open(url, timeout=20).read()

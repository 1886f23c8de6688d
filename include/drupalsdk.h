/*
 * drupalsdk.h - the C API of libdrupalsdk, a client for Drupal 10/11 sites.
 *
 * One header, C99. Link with `pkg-config --cflags --libs drupalsdk`.
 *
 * Conventions (they hold for every function below unless its doc says otherwise):
 *  - Every symbol starts with drupal_ / DRUPAL_.
 *  - Fallible functions return a drupal_code; DRUPAL_OK is 0. On failure the calling thread's
 *    last-error message (drupal_last_error()) says what went wrong. No function aborts the
 *    process on bad input: NULL handles and strings, invalid UTF-8 and malformed JSON are
 *    reported as DRUPAL_E_INVALID_ARGUMENT (or DRUPAL_E_DECODE for bodies).
 *  - A local file's path (the `path` of the streamed file calls) is bytes, as the system takes
 *    it: UTF-8 or not (a Latin-1 "caf\xe9.png"). Messages show bytes that are not UTF-8 as
 *    "\xE9" and control characters as escapes.
 *  - Output parameters come first, then the handle, then inputs, then (callback, userdata).
 *  - Input strings are copied before a call returns; the caller keeps ownership of them.
 *  - Returned pointers are either borrowed (valid until a named event) or owned (released with
 *    a named drupal_*_free); each function says which. Every drupal_*_free(NULL) is a no-op.
 *  - Returned strings are UTF-8. A NUL inside the text they carry (a server's JSON may hold
 *    "\u0000") is given as U+FFFD, so a string never ends early; bodies come with their length.
 *  - Functions returning json_t* say whether the reference is new (json_decref it) or borrowed.
 *  - Client handles are thread-safe: any number of threads may use one client at once.
 *  - Async calls return at once and call their callback exactly once, on a library thread
 *    (never on the caller's, inside the call, even when it fails at once), whatever happens
 *    (success, HTTP error, network error, cancellation). Blocking *_sync calls must not be made
 *    from inside a callback, event listener, progress or write callback (they return
 *    DRUPAL_E_STATE there), nor on a client from inside its token provider.
 */
#ifndef DRUPALSDK_H
#define DRUPALSDK_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Version ================================================================================ */

#define DRUPAL_SDK_VERSION_MAJOR 0
#define DRUPAL_SDK_VERSION_MINOR 1
#define DRUPAL_SDK_VERSION_PATCH 0
/* One number for compile-time comparisons: 0xMMmmpp. */
#define DRUPAL_SDK_VERSION_NUM ((DRUPAL_SDK_VERSION_MAJOR << 16) | \
                                (DRUPAL_SDK_VERSION_MINOR << 8) | DRUPAL_SDK_VERSION_PATCH)

/**
 * The library's version as "MAJOR.MINOR.PATCH" (a static string; never free it).
 * Compare with DRUPAL_SDK_VERSION_* to detect a header/library mismatch at run time.
 */
const char *drupal_version(void);

/** The library's version as DRUPAL_SDK_VERSION_NUM would give it. */
unsigned int drupal_version_num(void);

/* ==== Errors ================================================================================= */

/** Result codes. New codes may be added at the end; treat unknown values as errors. */
typedef enum drupal_code {
    DRUPAL_OK = 0,
    DRUPAL_E_INVALID_ARGUMENT = 1, /* NULL, empty or malformed input; unsafe path; bad option */
    DRUPAL_E_NETWORK = 2,          /* could not connect, connection reset, DNS failure, an answer that is
                                      not HTTP (a protocol error of the server), too many redirects */
    DRUPAL_E_TIMEOUT = 3,          /* connect or total timeout expired */
    DRUPAL_E_HTTP = 4,             /* the server answered with a status >= 400, or a redirect (3xx,
                                      not 304) that was not followed */
    DRUPAL_E_DECODE = 5,           /* a body was not the JSON (or text) expected, or not what its
                                      Content-Encoding says; a URL the server named for the client
                                      to fetch is not under the site */
    DRUPAL_E_CANCELLED = 6,        /* cancelled by drupal_call_cancel() or drupal_client_free() */
    DRUPAL_E_UNIMPLEMENTED = 7,    /* the operation has no implementation in this client */
    DRUPAL_E_TOO_LARGE = 8,        /* a response body (counted decoded) exceeded the client's max body
                                      size, or a request's URL or headers, or a response's headers
                                      (256 KiB), exceeded their limit */
    DRUPAL_E_TLS = 9,              /* TLS handshake or certificate verification failed */
    DRUPAL_E_NOT_FOUND = 10,       /* a lookup (header, JSON field, index) found nothing */
    DRUPAL_E_NO_MEMORY = 11,       /* an allocation failed */
    DRUPAL_E_STATE = 12,           /* not allowed now (e.g. a _sync call inside a callback) */
    DRUPAL_E_INTERNAL = 13,        /* a bug in the library; please report it */
    DRUPAL_E_FILE = 14             /* a local file failed while a file moved: a download's file
                                      could not be made, written (disk full) or put in place (a
                                      directory there now), or an upload's file could not be read
                                      or changed while it was sent; errno's text in the message.
                                      A path refused before anything is sent (a missing directory,
                                      no permission) is DRUPAL_E_INVALID_ARGUMENT */
} drupal_code;

/** The code's name, e.g. "DRUPAL_E_TIMEOUT" (static string; "DRUPAL_E_UNKNOWN" if unknown). */
const char *drupal_code_name(drupal_code code);

/**
 * The message of the last failing call made on this thread, or "" if none failed yet.
 * Borrowed: valid until the next drupal_* call on this thread. Never NULL.
 * UTF-8 (a byte that is not, or a NUL, is given as U+FFFD) and at most 2,047 bytes: a longer
 * message is cut at a character boundary and ends with "...". A failed call's
 * drupal_response_error_message() has more of it (up to 4,096 characters).
 */
const char *drupal_last_error(void);

/** The code of the last failing call made on this thread (DRUPAL_OK if none). What an HTTP
 * failure means: drupal_last_error_kind(), below. */
drupal_code drupal_last_error_code(void);

/* ==== Memory ================================================================================= */

/** Frees a string or buffer that a drupal_* function documented as "free with drupal_free". */
void drupal_free(void *pointer);

/* ==== Clients ================================================================================ */

/**
 * A connection to one Drupal site: its own cookie jar, CSRF token, auth mode and connection pool.
 * Thread-safe: any number of threads may make calls on one client at once. Two clients never
 * share cookies or tokens.
 */
typedef struct drupal_client drupal_client;

/** The answer to one call: status, headers, body, or the error that prevented one. */
typedef struct drupal_response drupal_response;

/** An async call in flight, for drupal_call_cancel(). */
typedef struct drupal_call drupal_call;

/** A request about to be sent, as a request hook sees it (see drupal_request_edit_*). */
typedef struct drupal_request_edit drupal_request_edit;

/**
 * Called for every request a client sends, just before it goes out (also for the CSRF token
 * fetch and each redirect hop the client follows), on the thread sending it: a library thread or
 * the caller's. It may read the request and add, change or remove headers. Return DRUPAL_OK to
 * send it; any other code fails the call with that code (one that is not a drupal_code, with
 * DRUPAL_E_INTERNAL). Must be thread-safe; must not call *_sync functions or free the client.
 */
typedef drupal_code (*drupal_request_hook)(drupal_request_edit *request, void *userdata);

/**
 * Called with one line (several, "\n"-separated) per request and per response, for logs: the
 * request line and headers, the status and headers of the answer, every secret (Authorization,
 * Cookie, Set-Cookie, X-CSRF-Token, your secret_headers, and the query values of token, pass,
 * password, access_token, refresh_token, client_secret and code under any spelling PHP reads as
 * that name: "%74oken", "access.token", "token[]") replaced by "<redacted>". Borrowed until the
 * hook returns; same threads and rules as the request hook.
 */
typedef void (*drupal_log_hook)(const char *line, void *userdata);

#define DRUPAL_CLIENT_OPTIONS_VERSION 6

/**
 * Options for drupal_client_new(). Initialise with DRUPAL_CLIENT_OPTIONS_INIT (or
 * drupal_client_options_init) and then set what you need, so that new fields added in later
 * versions keep their defaults. Zero numbers mean "the default".
 */
typedef struct drupal_client_options {
    unsigned int version;        /* DRUPAL_CLIENT_OPTIONS_VERSION */
    double connect_timeout;      /* seconds to connect (TCP + TLS); 0 = 10; at most 2147483 */
    double timeout;              /* seconds for a whole call, its redirects and retries included;
                                    0 = 60; at most 2147483. For a file streamed up or down
                                    (drupal_file_upload_path, the downloads): seconds with no byte
                                    moving instead (or below min_file_rate), so a large file
                                    takes as long as it needs while it moves */
    const char *user_agent;      /* NULL = "drupalsdk/<version>" */
    const char *ca_bundle;       /* a PEM file of CA certificates, its path as the system's bytes
                                    (UTF-8 or not); NULL = the system's (a file that cannot be
                                    read: DRUPAL_E_INVALID_ARGUMENT here) */
    int verify_tls;              /* 0 = verify certificates and host names (the default, also
                                    for a zero-filled struct; 1 means the same); -1 = don't */
    size_t max_body_size;        /* larger responses fail with DRUPAL_E_TOO_LARGE; 0 = 64 MiB (headers
                                    over 256 KiB fail so too) */
    const char *const *headers;  /* extra headers for every request: "Name: value" strings, NULL-terminated */
    int follow_redirects;        /* 1 = follow up to 5 redirects (credentials and bodies never go to
                                    another origin; a Location that is not http(s) or carries user
                                    info is DRUPAL_E_NETWORK); 0 = a 3xx is DRUPAL_E_HTTP with its
                                    status and Location header (default) */
    /* Version 2: */
    /* REST paths of custom entity types (or core ones moved): NULL-terminated triples of entity
     * type, canonical path with "{id}", create path, e.g. {"event", "/event/{id}", "/event/add",
     * NULL}. Types without an entry use Drupal's core paths, else /entity/<type>/{id}. */
    const char *const *entity_paths;
    /* Retries of a failed request: idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS) after a
     * connection failure or a 429/502/503/504, any method when the connection could not be made;
     * exponential backoff with jitter, Retry-After honoured, never past the timeout; each retry
     * is a DRUPAL_EVENT_RETRY. 0 = 2 (the default), -1 = no retries, N = N. */
    int max_retries;
    /* Names of headers of yours that carry credentials (NULL-terminated), stripped like
     * Authorization, Cookie and X-CSRF-Token from any redirect to another origin, and redacted
     * in log lines. */
    const char *const *secret_headers;
    drupal_request_hook request_hook;  /* NULL = none */
    void *request_hook_userdata;
    drupal_log_hook log_hook;          /* NULL = none */
    void *log_hook_userdata;
    /* Version 3: */
    /* Idle connections kept open for reuse (per libcurl multi handle: the client's async one,
     * and one per thread making blocking calls): keep it at least the number of requests you
     * keep in flight, or connections are closed and opened again (a TLS handshake each on
     * https). 0 = 64; at most 10000. */
    int max_connections;
    /* Microseconds a blocking call keeps checking its socket before it sleeps until the answer
     * arrives: more sequential requests per second from a fast server, for up to this much CPU
     * per wait (after a wait that ran out, the next 8 sleep at once). 0 = off (the default: the
     * library does not spin the caller's core); at most 1000000. */
    int busy_poll_us;
    /* 0 = HTTP/2 over https when the server offers it (the default): requests in flight share one
     * connection; -1 = HTTP/1.1 only. Plain http is always HTTP/1.1. */
    int http2;
    /* Version 4: */
    /* The proxy of every request. NULL = from the environment, as curl: https_proxy (or
     * HTTPS_PROXY) for https, http_proxy for http, no_proxy for hosts reached directly (a
     * client made while none of them was set uses no proxy, even if one is set later). "" = no
     * proxy, whatever the environment says. Else a proxy URL: http://, https://, socks4://,
     * socks4a://, socks5:// or socks5h:// (the proxy resolves host names), with the proxy's
     * credentials if it needs them ("http://user:pass@proxy:3128"; never logged or quoted in an
     * error); no_proxy still applies. An https proxy is verified as the site is (verify_tls,
     * ca_bundle). An https site's traffic stays encrypted through it. */
    const char *proxy;
    /* Version 5: */
    /* 0 = ask for compressed answers (Accept-Encoding: gzip, deflate, br: the codings the library
     * decodes) and decode them as they arrive (the default), a body whose compressed stream does
     * not end exactly (cut short, bytes after it) failing with DRUPAL_E_DECODE: a JSON:API page a web
     * server compresses crosses the network in a fifth to a tenth of its bytes; max_body_size
     * counts the decoded bytes; the Content-Encoding and Content-Length headers stay as sent.
     * Downloads (drupal_file_download) ask for none whatever this says: they save the file as stored.
     * -1 = ask for none (an answer compressed anyway is handed over as it arrived). */
    int compression;
    /* Version 6: */
    /* For a file streamed up or down (where timeout bounds a stall, not the call): the bytes per
     * second it must average over timeout seconds, or it fails with DRUPAL_E_TIMEOUT. 0 = 1 (the
     * default): only a stall fails, no byte moving; more also ends a server that trickles (at a
     * byte a second, a 64 MiB download takes two years). At most 1073741824 (1 GiB/s). */
    int min_file_rate;
} drupal_client_options;

#define DRUPAL_CLIENT_OPTIONS_INIT \
    { DRUPAL_CLIENT_OPTIONS_VERSION, 0, 0, NULL, NULL, 0, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, NULL, NULL, \
      0, 0, 0, NULL, 0, 0 }

/**
 * Fills *options with the defaults (as DRUPAL_CLIENT_OPTIONS_INIT), writing only the fields of
 * `version` (a struct of an older version is smaller). Every version from 1 is accepted, here and
 * by drupal_client_new(), which reads `version` first and then only that version's fields.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT if options is NULL or version is not one this
 *         library knows.
 */
drupal_code drupal_client_options_init(drupal_client_options *options, unsigned int version);

/**
 * Creates a client for the site at base_url ("https://example.com", or with a sub-directory or
 * language prefix: "https://example.com/en"). No request is sent yet.
 *
 * @param out      receives the client; owned, free with drupal_client_free(). NULL on failure.
 * @param base_url http:// or https:// URL without query, fragment or credentials; copied.
 * @param options  NULL for the defaults; copied (strings too).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for a NULL or malformed argument, an unknown
 *         options version, or a header value with a control character (CR, LF, ...; a tab is
 *         allowed); DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_client_new(drupal_client **out, const char *base_url, const drupal_client_options *options);

/**
 * Frees a client. Calls still in flight are cancelled: each of their callbacks still runs exactly
 * once (with DRUPAL_E_CANCELLED unless it had already finished), and none runs after this returns
 * (also when called from another client's callback). Pages its JSON:API pagers fetched ahead are
 * cancelled and waited for too, so no hook or token provider runs for them after this returns (the
 * pagers stay valid until drupal_pager_free; their fetches are refused). The one exception: called from inside one
 * of this client's own callbacks, event listeners, progress or write callbacks or its token
 * provider, whose call cannot end before it returns, it does not wait: the calls are cancelled,
 * their callbacks may run after it returns, and the client is freed once they end. A client and
 * the language views made from it count as one client here (their calls end on the same
 * threads). NULL is a no-op.
 */
void drupal_client_free(drupal_client *client);

/**
 * Sends HTTP Basic credentials on every following request (Drupal's basic_auth module).
 * Credentials are copied and never logged.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL, an empty user, ':' in the user, or
 *         CR/LF/NUL or invalid UTF-8 in either.
 */
drupal_code drupal_client_set_basic_auth(drupal_client *client, const char *user, const char *password);

/**
 * Sends "Authorization: Bearer <token>" on every following request (e.g. simple_oauth).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL, empty, or a token with spaces or
 *         control characters.
 */
drupal_code drupal_client_set_bearer_token(drupal_client *client, const char *token);

/**
 * Whether the client holds a login session (from drupal_login(), not yet logged out or
 * forgotten): what drupal_logout() needs. Sends nothing. @return 1 or 0 (0 for NULL).
 */
int drupal_client_has_session(const drupal_client *client);

/**
 * Forgets the login session locally: drops the session cookie, CSRF and logout tokens without a
 * request (the site keeps the session until it expires; use drupal_logout() to end it there).
 * Cookie authentication becomes none; Basic or Bearer credentials stay.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for a NULL client.
 */
drupal_code drupal_client_forget_session(drupal_client *client);

/**
 * Stops sending Basic or Bearer credentials. A session cookie from drupal_login() is kept until
 * drupal_logout(). @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for a NULL client.
 */
drupal_code drupal_client_set_no_auth(drupal_client *client);

/* ---- Request hooks: drupal_request_edit (valid while the hook runs) ---------------------- */

/** The request's method ("GET", ...). Borrowed until the hook returns; NULL for NULL. */
const char *drupal_request_edit_method(const drupal_request_edit *request);
/** The request's absolute URL. Borrowed until the hook returns; NULL for NULL. */
const char *drupal_request_edit_url(const drupal_request_edit *request);
/** The first value of a header (case-insensitive), or NULL. Borrowed until the hook returns. */
const char *drupal_request_edit_header(const drupal_request_edit *request, const char *name);
/**
 * Sets a header (replacing any of that name). @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for
 * NULL, a name that is not a token, a control character other than a tab in the value, or a
 * header that frames the request.
 */
drupal_code drupal_request_edit_set_header(drupal_request_edit *request, const char *name, const char *value);
/** Removes every header of that name. @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL. */
drupal_code drupal_request_edit_remove_header(drupal_request_edit *request, const char *name);

/* ==== Calls: callbacks, cancellation, blocking variants ======================================= */

/**
 * Called exactly once per started async call, on a library thread.
 * @param code     DRUPAL_OK for a status below 400; else the failure (DRUPAL_E_HTTP carries the
 *                 status, Drupal's message and the body in the response).
 * @param response never NULL; **borrowed** until the callback returns (drupal_response_retain()
 *                 keeps it longer). It carries the error code and message on failure too.
 * @param userdata the pointer given when the call was started.
 * *_sync functions return DRUPAL_E_STATE here; drupal_client_free() of this call's own client
 * does not wait here (see drupal_client_free).
 */
typedef void (*drupal_callback)(drupal_code code, drupal_response *response, void *userdata);

/**
 * Every async function below has this shape:
 *   drupal_code drupal_X(drupal_call **call, drupal_client *client, <inputs>,
 *                        drupal_callback callback, void *userdata);
 * It validates its arguments, copies them, starts the call and returns at once.
 *  - DRUPAL_OK: the call started; the callback will run exactly once.
 *  - anything else (NULL client/callback/string, invalid UTF-8, unsafe path...): nothing started,
 *    the callback will never run, and drupal_last_error() says why.
 * @param call  NULL, or receives a handle to cancel the call; owned, free with drupal_call_free()
 *              (at any time, before or after the callback ran). It is set before the call
 *              starts, so a callback that runs before drupal_X returns finds it there; NULL when
 *              nothing started.
 *
 * Every blocking variant drupal_X_sync(drupal_response **out, drupal_client *client, <inputs>)
 * waits for the answer on the calling thread and returns the same code the callback would get;
 * *out receives an **owned** response (free with drupal_response_free()) whenever the call
 * started (also on HTTP and network errors), else NULL. Returns DRUPAL_E_STATE from inside a
 * callback or event listener.
 */

/**
 * Cancels a call in flight: its callback runs with DRUPAL_E_CANCELLED (unless it has already
 * finished or is finishing). @return DRUPAL_OK (also when the call already ended);
 * DRUPAL_E_INVALID_ARGUMENT for NULL.
 */
drupal_code drupal_call_cancel(drupal_call *call);

/** Releases a call handle (does not cancel the call). NULL is a no-op. */
void drupal_call_free(drupal_call *call);

/**
 * Called on the waiting thread during a blocking call when the fd given to
 * drupal_set_interrupt_fd() or drupal_set_interrupt_watch() becomes readable, or when the watch's
 * interval is up. Return nonzero to cancel the call, 0 to go on waiting (having read what made
 * the fd readable, else it is called again at once).
 */
typedef int (*drupal_interrupt_callback)(void *userdata);

/**
 * Lets something other than the network end blocking calls made on the calling thread, e.g. a
 * signal: while a *_sync call on this thread waits for the network, it also waits for fd to
 * become readable (a pipe a signal handler writes to). Then callback(userdata) runs on this
 * thread; if it returns nonzero (or callback is NULL) the call ends with DRUPAL_E_CANCELLED, its
 * transfers aborted (a request already sent may have reached the server). The library never reads
 * or closes fd. The setting is per thread and stays until changed; fd -1 removes it.
 * Blocking calls of mock clients answer at once and do not watch fd.
 * The same as drupal_set_interrupt_watch(fd, 0, callback, userdata).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for an fd below -1.
 */
drupal_code drupal_set_interrupt_fd(int fd, drupal_interrupt_callback callback, void *userdata);

/**
 * drupal_set_interrupt_fd() with a periodic check as well: while a *_sync call on this thread
 * waits, callback(userdata) also runs every interval_ms milliseconds (measured from the call's
 * first wait; a call answered without waiting never runs it). fd -1: no fd, only the interval;
 * interval_ms 0: no interval, only the fd; both remove the setting. For a runtime whose signal
 * handlers run when the thread re-enters it (Python: entering the callback runs them), the
 * interval covers a wake-up fd that another library owns.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for an fd below -1 or an interval_ms outside
 *         0..600000.
 */
drupal_code drupal_set_interrupt_watch(int fd, int interval_ms, drupal_interrupt_callback callback,
                                       void *userdata);

/* ==== Completion queues: async outcomes collected for one consumer ========================== */

/*
 * A queue takes the outcomes of async calls in place of a callback on a library thread. Start a
 * call with drupal_queue_callback as its callback and a ticket from drupal_queue_ticket() as its
 * userdata: when the call ends its outcome is queued and the queue's file descriptor becomes
 * readable. The consumer (an event loop watching the fd, a thread polling it) takes the outcomes
 * with drupal_queue_pop(), many per wake-up. None of the consumer's code runs on a library
 * thread: for a binding whose callbacks are costly to enter (a Python callback takes the GIL),
 * calls finishing together cost one wake-up of the consumer. Thread-safe: calls may end into one
 * queue from any thread while one consumer pops.
 */
typedef struct drupal_queue drupal_queue;

/** One outcome taken from a queue. */
typedef struct drupal_completion {
    uint64_t tag;               /**< the tag the call's ticket was made with */
    drupal_code code;           /**< what the callback would have been given */
    drupal_response *response;  /**< never NULL; **owned**: free with drupal_response_free() */
} drupal_completion;

/**
 * Makes an empty queue. @param queue receives it; owned, free with drupal_queue_free().
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL; DRUPAL_E_NO_MEMORY when no memory or no
 * file descriptor is left.
 */
drupal_code drupal_queue_new(drupal_queue **queue);

/**
 * The queue's file descriptor (an eventfd, non-blocking): readable while outcomes wait, not
 * after drupal_queue_pop() has taken the last. Owned by the queue: watch it, never read or close
 * it. @return -1 for NULL.
 */
int drupal_queue_fd(const drupal_queue *queue);

/**
 * Makes the userdata of one call whose outcome goes to `queue` under `tag` (start the call with
 * drupal_queue_callback). Once the call has started the call owns it; if starting it failed
 * (the callback will never run), free it with drupal_queue_ticket_free().
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_queue_ticket(void **userdata, drupal_queue *queue, uint64_t tag);

/** Frees a ticket whose call did not start. NULL is a no-op. */
void drupal_queue_ticket_free(void *userdata);

/** The drupal_callback that queues a call's outcome (its userdata is a ticket). */
void drupal_queue_callback(drupal_code code, drupal_response *response, void *userdata);

/**
 * Takes up to `capacity` outcomes, oldest first, into out[0..]. Call it from one consumer at a
 * time. @return how many were taken: 0 when none wait (or for NULL / capacity 0).
 */
size_t drupal_queue_pop(drupal_completion *out, drupal_queue *queue, size_t capacity);

/**
 * Frees the queue. Outcomes still queued are dropped (their responses freed); calls still in
 * flight with its tickets may go on: their outcomes are dropped when they end, and the memory
 * goes with the last of them. NULL is a no-op.
 */
void drupal_queue_free(drupal_queue *queue);

/* ==== Session: login, logout, status, CSRF ==================================================== */

/**
 * Logs in with a user name and password (POST /user/login?_format=json) and switches the client
 * to cookie authentication: the session cookie, CSRF token and logout token are kept in the
 * client (in memory only). Any earlier session of this client is dropped first.
 * The response body is Drupal's answer: {"current_user": {"uid", "name", "roles"?},
 * "csrf_token", "logout_token"}. Bad credentials give DRUPAL_E_HTTP with status 400.
 */
drupal_code drupal_login(drupal_call **call, drupal_client *client, const char *name, const char *password,
                         drupal_callback callback, void *userdata);
drupal_code drupal_login_sync(drupal_response **out, drupal_client *client, const char *name, const char *password);

/**
 * Logs out (POST /user/logout?_format=json&token=<logout token>), then forgets the session
 * cookie and tokens. A client that holds no session (drupal_client_has_session() is 0) has no
 * logout token to send: the call then fails with DRUPAL_E_STATE (in the callback; _sync returns
 * it), by design, without a request. A session the site already ended is forgotten too: without
 * a request (DRUPAL_E_STATE) when its cookie expired or was deleted, else after the site's
 * refusal (DRUPAL_E_HTTP 403). Any other failure (a network error, a 503) keeps the session, to
 * try again.
 */
drupal_code drupal_logout(drupal_call **call, drupal_client *client, drupal_callback callback, void *userdata);
drupal_code drupal_logout_sync(drupal_response **out, drupal_client *client);

/**
 * Asks the site whether this client's session cookie is logged in (GET /user/login_status,
 * sent with the cookie alone: Drupal refuses Basic credentials on this route). On success the
 * response is Drupal's answer: status 200, text/plain body "1" or "0" (DRUPAL_E_DECODE if it was
 * neither); drupal_response_logged_in() reads it. On failure the response carries the status and
 * message as for every call.
 */
drupal_code drupal_login_status(drupal_call **call, drupal_client *client, drupal_callback callback,
                                void *userdata);
/**
 * Blocking login status.
 * @param out       NULL when the response is not wanted; else as every _sync call (owned; NULL if
 *                  nothing started).
 * @param logged_in NULL, or receives 1 or 0 (0 on failure).
 */
drupal_code drupal_login_status_sync(drupal_response **out, int *logged_in, drupal_client *client);

/**
 * Reads a login status answer (the core's reading of Drupal's "1" or "0").
 * @param logged_in receives 1 or 0.
 * @return DRUPAL_OK; DRUPAL_E_DECODE for any other body; DRUPAL_E_INVALID_ARGUMENT for NULL or a
 *         response that is not a successful answer.
 */
drupal_code drupal_response_logged_in(int *logged_in, const drupal_response *response);

/**
 * Fetches a new CSRF token from /session/token (with the session cookie alone) and keeps it. The body is the token. The client
 * fetches and refreshes the token by itself when needed; this is for callers who want it now.
 */
drupal_code drupal_csrf_refresh(drupal_call **call, drupal_client *client, drupal_callback callback, void *userdata);
drupal_code drupal_csrf_refresh_sync(drupal_response **out, drupal_client *client);

/* ==== OAuth 2 (contrib simple_oauth) ========================================================= */
/*
 * The client gets Bearer tokens from the site's token endpoint (POST /oauth/token, form-encoded)
 * and keeps one token state: access token, expiry, refresh token. It refreshes the token before
 * it expires (refresh_margin seconds early) and once after a 401 whose "WWW-Authenticate: Bearer"
 * challenge refuses it, then retries the request once; concurrent requests wait for that one
 * refresh (single flight). Drupal rotates the refresh token on every refresh (the old pair is
 * revoked at once): the client keeps the newest. client_credentials gives no refresh token: a new
 * token is fetched instead; a password grant whose refresh is refused logs in again once. Token
 * errors ({error, error_description, hint}) are never retried in a loop: they fail the call with
 * DRUPAL_E_HTTP, DRUPAL_ERROR_KIND_AUTHENTICATION, the token endpoint's status (401 invalid_client,
 * 400 invalid_grant / unsupported_grant_type / invalid_scope) and drupal_response_oauth_error().
 * Bearer requests need no CSRF token. Tokens and secrets never appear in logs, events or errors.
 */

typedef enum drupal_oauth_grant {
    DRUPAL_OAUTH_CLIENT_CREDENTIALS = 1, /* the consumer acts as its default user; no refresh token */
    DRUPAL_OAUTH_PASSWORD = 2,           /* username + password (simple_oauth_password_grant) */
    DRUPAL_OAUTH_REFRESH_TOKEN = 3,      /* start from a refresh token obtained elsewhere */
    DRUPAL_OAUTH_AUTHORIZATION_CODE = 4  /* a code from the site's /oauth/authorize, exchanged once
                                            (options version 2; see drupal_oauth_authorization) */
} drupal_oauth_grant;

#define DRUPAL_OAUTH_OPTIONS_VERSION 2

/** Settings of drupal_client_set_oauth(). Initialise with DRUPAL_OAUTH_OPTIONS_INIT. */
typedef struct drupal_oauth_options {
    unsigned int version;          /* DRUPAL_OAUTH_OPTIONS_VERSION */
    drupal_oauth_grant grant;
    const char *client_id;         /* the consumer's client id (required) */
    const char *client_secret;     /* NULL for a public consumer */
    const char *username;          /* DRUPAL_OAUTH_PASSWORD: the user's name or e-mail */
    const char *password;          /* DRUPAL_OAUTH_PASSWORD */
    const char *refresh_token;     /* DRUPAL_OAUTH_REFRESH_TOKEN */
    const char *scope;             /* space-separated scopes; NULL = the consumer's default */
    const char *token_path;        /* NULL = "/oauth/token" (under the base URL, never a language prefix) */
    int client_auth_basic;         /* 1 = client id and secret in an HTTP Basic header; 0 = in the form */
    double refresh_margin;         /* seconds before expiry to refresh (at most half the token's lifetime);
                                      0 = 30; negative = only on expiry or after a 401 */
    /* Version 2: */
    const char *code;              /* DRUPAL_OAUTH_AUTHORIZATION_CODE: the code the site redirected with */
    const char *redirect_uri;      /* DRUPAL_OAUTH_AUTHORIZATION_CODE, and drupal_oauth_authorization_new:
                                      the consumer's redirect URI the authorization was asked with */
    const char *code_verifier;     /* DRUPAL_OAUTH_AUTHORIZATION_CODE: the PKCE verifier of that request
                                      (43 to 128 characters of A-Z a-z 0-9 - . _ ~); NULL = none */
} drupal_oauth_options;

#define DRUPAL_OAUTH_OPTIONS_INIT \
    { DRUPAL_OAUTH_OPTIONS_VERSION, DRUPAL_OAUTH_CLIENT_CREDENTIALS, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, \
      NULL, NULL, NULL }

/**
 * Switches the client to OAuth 2 (replacing Basic, Bearer, a token provider or cookie
 * authentication; a login session's cookie is kept). Nothing is sent yet: the first request
 * fetches the token (drupal_oauth_authenticate() does it at once). The token request runs on the
 * client's own thread and connections, whichever call starts it, so that it ends even when a
 * blocking call that waits for it gives up (its timeout): a program making only _sync calls has
 * one connection more, the token endpoint's. Every string is copied.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL, an unknown options version or grant, a
 *         NULL or empty client_id, a missing username/password/refresh_token for its grant, CR/LF
 *         or other control characters or invalid UTF-8 in any string (never quoted in the
 *         message), an unsafe token_path, or a NaN refresh_margin.
 */
drupal_code drupal_client_set_oauth(drupal_client *client, const drupal_oauth_options *options);

/*
 * The authorization code grant with PKCE (RFC 6749 §4.1, RFC 7636), for a program that acts for a
 * person (a desktop tool), who approves the request in a browser:
 *   drupal_oauth_options o = DRUPAL_OAUTH_OPTIONS_INIT;
 *   o.client_id = "sdk-desktop";
 *   o.redirect_uri = "http://127.0.0.1:8765/callback";
 *   drupal_oauth_authorization_new(&a, client, &o);
 *   open drupal_oauth_authorization_url(a) in a browser; the site sends it to the redirect URI
 *   with ?code=...&state=...; give that whole URL to
 *   drupal_oauth_authorization_finish(a, client, redirected_to);   the client is now on OAuth
 *   drupal_oauth_authorization_free(a);
 * The client exchanges the code with its first request (or drupal_oauth_authenticate()) and keeps
 * the session going with the refresh token Drupal gives with it. A code is exchanged once: when
 * the refresh token is refused (or none was given), calls fail with DRUPAL_ERROR_KIND_AUTHENTICATION
 * until the person authorizes again. The state and the verifier are random (128 and 256 bits,
 * from getrandom) and never logged or quoted.
 */
typedef struct drupal_oauth_authorization drupal_oauth_authorization;

/**
 * Starts an authorization request for the site of client (its base URL).
 * @param out     receives it; free with drupal_oauth_authorization_free(). NULL on failure.
 * @param options client_id and redirect_uri (required), scope; the rest (client_secret,
 *                token_path, client_auth_basic, refresh_margin) is kept for the exchange.
 *                grant, code and code_verifier are ignored. Every string is copied.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT as drupal_client_set_oauth (a version 1 struct has
 *         no redirect_uri: version 2 is needed); DRUPAL_E_STATE for a client with no site (a mock).
 */
drupal_code drupal_oauth_authorization_new(drupal_oauth_authorization **out, const drupal_client *client,
                                           const drupal_oauth_options *options);

/** The page to open: <base URL>/oauth/authorize?response_type=code&client_id=...&state=...
 *  &code_challenge=...&code_challenge_method=S256. Borrowed from the authorization. NULL for NULL. */
const char *drupal_oauth_authorization_url(const drupal_oauth_authorization *authorization);

/**
 * Reads the code of the URL the site redirected the browser to and switches client to OAuth with
 * it (as drupal_client_set_oauth with DRUPAL_OAUTH_AUTHORIZATION_CODE and this request's
 * verifier). Nothing is sent yet. The authorization may be freed after.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL, a redirect without this request's state
 *         (another request's, or forged) or without a code; DRUPAL_E_HTTP with
 *         DRUPAL_ERROR_KIND_AUTHENTICATION (drupal_last_error_kind()) when the redirect says the
 *         request was refused (error=access_denied...: drupal_last_error() gives its words; no
 *         response exists).
 */
drupal_code drupal_oauth_authorization_finish(drupal_oauth_authorization *authorization, drupal_client *client,
                                              const char *redirected_to);

/** Frees an authorization. NULL is a no-op. */
void drupal_oauth_authorization_free(drupal_oauth_authorization *authorization);

/** Why a token provider is asked for a token. */
typedef enum drupal_token_reason {
    DRUPAL_TOKEN_INITIAL = 1,  /* the client holds none yet */
    DRUPAL_TOKEN_EXPIRING = 2, /* the held one expires within the refresh margin */
    DRUPAL_TOKEN_REJECTED = 3  /* the site refused the held one (a 401), or drupal_oauth_authenticate() */
} drupal_token_reason;

/** What a token provider answers with (valid while the provider runs). */
typedef struct drupal_token_request drupal_token_request;

/**
 * Gives the client a token: for sites that mint tokens some other way. Called on a library
 * thread of its own (it may block), at most once at a time per client, with the same single
 * flight, early refresh and one retry after a 401 as the token endpoint. It answers by calling
 * drupal_token_request_set() and returning DRUPAL_OK; any other code fails the waiting calls
 * with that code (one that is not a drupal_code, with DRUPAL_E_INTERNAL), and with the message
 * given to drupal_token_request_fail() if it called that. It may call other
 * clients, _sync ones too, and start async calls on this one; a *_sync call on this client returns
 * DRUPAL_E_STATE (it would wait for the very token being fetched). Freeing the client here does
 * not wait (see drupal_client_free).
 * A call waiting for the token, the call that started the provider included, waits no longer
 * than its timeout (then DRUPAL_E_TIMEOUT, as a request that takes too long) and stops at once
 * when cancelled (DRUPAL_E_CANCELLED). The provider is not interrupted: it runs to its end, and
 * the token it gives is kept and serves the calls still waiting and those after it (the
 * provider is not asked again for them). drupal_client_free() waits for a provider still running
 * (except when called from inside one of the client's callbacks, the provider included), so
 * userdata is free to go once it returns.
 */
typedef drupal_code (*drupal_token_provider)(drupal_token_request *request, void *userdata);

/** The reason of a token request (0 for NULL). */
drupal_token_reason drupal_token_request_reason(const drupal_token_request *request);

/**
 * Answers a token request. @param access_token what goes after "Bearer " (copied);
 * @param expires_in its lifetime in seconds from now; 0 or less = unknown (it is then replaced
 * only after a 401). @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL, an empty token, one
 * with spaces, control characters or invalid UTF-8, one over 65,472 bytes (the token is never
 * quoted), or an expires_in that is NaN or infinite.
 */
drupal_code drupal_token_request_set(drupal_token_request *request, const char *access_token, double expires_in);

/**
 * Says why a token provider fails, for it to return: the waiting calls fail with code and the
 * message "the token provider failed: <message>" (without it, the message names only the code).
 * Call it from inside the provider, on its request. The message is the caller's text, shown as
 * given: put no secret in it. It is copied; invalid UTF-8 is given as U+FFFD, control characters
 * as escapes ("\u{1b}"), and only its first 1,024 bytes are kept (cut between two characters,
 * ending with "...").
 *   return drupal_token_request_fail(request, DRUPAL_E_NETWORK, "the vault is sealed");
 * @param code the failure's code (DRUPAL_OK, which is none, and a value that is no drupal_code
 *        are taken as DRUPAL_E_INTERNAL).
 * @return that code, for the provider to return (drupal_last_error() is then the message);
 *         DRUPAL_E_INVALID_ARGUMENT for a NULL request or message.
 */
drupal_code drupal_token_request_fail(drupal_token_request *request, drupal_code code, const char *message);

/**
 * Switches the client to Bearer tokens from provider(request, userdata) (replacing any other
 * authentication, as drupal_client_set_oauth). userdata must stay valid while the client lives or
 * until the authentication changes. @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL.
 */
drupal_code drupal_client_set_token_provider(drupal_client *client, drupal_token_provider provider, void *userdata);

/**
 * The OAuth refresh token the client holds now, for a program that keeps it (a keyring) to start
 * from next time (DRUPAL_OAUTH_REFRESH_TOKEN) rather than ask the person again. It is the site's
 * newest: Drupal rotates it on every refresh and revokes the one before, so read it after the
 * calls (before the program ends). It is a secret: store it as one. Sends nothing.
 * @param out receives an owned copy (free with drupal_free()), or NULL when the client holds none:
 *            before its first token, with a grant that gives none (client_credentials), and once
 *            the site refused it.
 * @return DRUPAL_OK (also when *out is NULL); DRUPAL_E_INVALID_ARGUMENT for NULL;
 *         DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_client_oauth_refresh_token(char **out, const drupal_client *client);

/**
 * Fetches an OAuth token now (from the token endpoint or the provider), as after a refusal, so
 * that bad credentials show at once. Success: status 200, a JSON body saying what was obtained,
 * never the token: {"token_type": "Bearer", "has_refresh_token": true, "refresh_in": 270}.
 * DRUPAL_E_STATE if the client is not set to OAuth or a token provider.
 */
drupal_code drupal_oauth_authenticate(drupal_call **call, drupal_client *client, drupal_callback callback,
                                      void *userdata);
drupal_code drupal_oauth_authenticate_sync(drupal_response **out, drupal_client *client);

/**
 * A member of the OAuth error of a failure: of the token endpoint's error document ("error",
 * "error_description", "hint"), or of the "WWW-Authenticate: Bearer" challenge of a 401 that
 * refused a token ("error", "error_description", e.g. "Access token could not be verified",
 * "realm"). Borrowed from the response; NULL when absent (no OAuth error, or no such member).
 */
const char *drupal_response_oauth_error(const drupal_response *response, const char *member);

/* ==== Languages ================================================================================ */
/*
 * Sites with the language module and URL prefixes (French at /fr): a client in a language sends
 * every path under the prefix ("/fr/node/1?_format=json", "/fr/jsonapi/node/article"), except the
 * session and OAuth token endpoints and file downloads; the default language has no prefix. Every
 * language shares one session: one login, one CSRF and OAuth token, one cookie jar, one pool.
 * Reads of an entity with no translation in the language answer the original (no 404):
 * drupal_response_langcode() tells which. Core REST's traps are guarded: an update of an entity
 * that has no translation in the language would change the ORIGINAL (and a "langcode" in the body
 * its language), so it is refused (DRUPAL_E_STATE) after a GET shows that (the entity answered
 * is not in the language Drupal negotiated, its Content-Language, which need not be the prefix:
 * "pt-br" at /br); a delete under a prefix
 * would delete the whole entity, every translation, so it is refused without a request. Core REST
 * cannot create a translation: a create makes a new entity in the default language. JSON:API
 * under a prefix reads the translation; a PATCH of a translation that does not exist, or a
 * DELETE of a translation, is Drupal's 405 (DRUPAL_E_HTTP, its message in
 * drupal_response_error_message()); the links of a French answer carry /fr already and are
 * followed as given (drupal_jsonapi_follow, the pagers), never prefixed twice.
 */

/** drupal_client_with_language flag: allow the guarded writes (untranslated updates, deletes). */
#define DRUPAL_LANGUAGE_FORCE 1u

/**
 * A second handle on the same client whose calls go under a language's path prefix.
 * @param out      receives it; owned, free with drupal_client_free() (which cancels only its own
 *                 calls and pagers, but waits for a token provider run in progress whichever
 *                 handle's call started it; the session lives while any handle of it does).
 *                 Events, hooks, listeners and the token provider are the client's.
 * @param language the prefix ("fr", "pt-br": letters, digits, '-', '_'); "" = the default language
 *                 (no prefix); NULL = the client's own (a plain second handle); copied.
 * @param flags    0, or DRUPAL_LANGUAGE_FORCE.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL, a language that is not such a prefix, or
 *         unknown flags.
 */
drupal_code drupal_client_with_language(drupal_client **out, drupal_client *client, const char *language,
                                        unsigned int flags);

/**
 * The langcode of the entity a successful answer carries: core REST's "langcode" field, or
 * JSON:API's data.attributes.langcode. Compare it with the language asked to tell a translation
 * from the original it fell back to. Borrowed; NULL when the answer carries none.
 */
const char *drupal_response_langcode(const drupal_response *response);

/* ==== Entities ================================================================================ */

/*
 * entity_type is a machine name ("node", "comment", "taxonomy_term", "user", "file", "media",
 * "block_content", ... or a custom type, reached at /entity/<type>/<id>). id is percent-encoded.
 * Bodies are Drupal's REST JSON ({"type": [{"target_id": "article"}], "title": [{"value": "Hi"}]});
 * they must be valid JSON (else DRUPAL_E_INVALID_ARGUMENT). ?_format=json, Content-Type, auth,
 * cookies and X-CSRF-Token (fetched and refreshed as needed) are added by the library.
 */

/** GET the entity. Success: status 200, body = the entity JSON. Missing: DRUPAL_E_HTTP, 404. */
drupal_code drupal_entity_get(drupal_call **call, drupal_client *client, const char *entity_type, const char *id,
                              drupal_callback callback, void *userdata);
drupal_code drupal_entity_get_sync(drupal_response **out, drupal_client *client, const char *entity_type,
                                   const char *id);

/** POST a new entity. Success: status 201, body = the stored entity, Location header (most types). */
drupal_code drupal_entity_create(drupal_call **call, drupal_client *client, const char *entity_type,
                                 const char *body, size_t body_length, drupal_callback callback, void *userdata);
drupal_code drupal_entity_create_sync(drupal_response **out, drupal_client *client, const char *entity_type,
                                      const char *body, size_t body_length);

/** PATCH an entity with the fields in body (include the bundle field). Success: 200 + entity. */
drupal_code drupal_entity_update(drupal_call **call, drupal_client *client, const char *entity_type, const char *id,
                                 const char *body, size_t body_length, drupal_callback callback, void *userdata);
drupal_code drupal_entity_update_sync(drupal_response **out, drupal_client *client, const char *entity_type,
                                      const char *id, const char *body, size_t body_length);

/** DELETE an entity. Success: status 204, empty body. */
drupal_code drupal_entity_delete(drupal_call **call, drupal_client *client, const char *entity_type, const char *id,
                                 drupal_callback callback, void *userdata);
drupal_code drupal_entity_delete_sync(drupal_response **out, drupal_client *client, const char *entity_type,
                                      const char *id);

/** drupal_entity_create with a Jansson body (serialised at once; the caller keeps its reference). */
drupal_code drupal_entity_create_json(drupal_call **call, drupal_client *client, const char *entity_type,
                                      const json_t *body, drupal_callback callback, void *userdata);
drupal_code drupal_entity_create_json_sync(drupal_response **out, drupal_client *client, const char *entity_type,
                                           const json_t *body);

/** drupal_entity_update with a Jansson body (serialised at once; the caller keeps its reference). */
drupal_code drupal_entity_update_json(drupal_call **call, drupal_client *client, const char *entity_type,
                                      const char *id, const json_t *body, drupal_callback callback, void *userdata);
drupal_code drupal_entity_update_json_sync(drupal_response **out, drupal_client *client, const char *entity_type,
                                           const char *id, const json_t *body);

/**
 * Uploads a file to a file field (POST /file/upload/<entity_type>/<bundle>/<field>?_format=json,
 * application/octet-stream). Only the base name of filename is sent. Success: 201, body = the
 * file entity (reference its fid from the host entity's field).
 */
drupal_code drupal_file_upload(drupal_call **call, drupal_client *client, const char *entity_type,
                               const char *bundle, const char *field, const char *filename, const void *data,
                               size_t length, drupal_callback callback, void *userdata);
drupal_code drupal_file_upload_sync(drupal_response **out, drupal_client *client, const char *entity_type,
                                    const char *bundle, const char *field, const char *filename,
                                    const void *data, size_t length);

/* ==== Accounts and paths ====================================================================== */

/**
 * Registers an account (POST /user/register?_format=json; the site's user_registration REST
 * resource, anonymous callers only). Success: status **200** (not 201), body = the new account as
 * anonymous may see it (uid, uuid, name...; no mail, no roles). Name or mail taken: DRUPAL_E_HTTP
 * 422 with one violation per field; a password on a site that verifies e-mail addresses: 422 "A
 * Password cannot be specified. It will be generated on login."; a logged-in caller: 403.
 * @param password    NULL on sites that mail the user a link (they refuse one).
 * @param fields_json NULL, or more fields of the account as a JSON object in Drupal's REST JSON
 *                    ({"timezone": [{"value": "Europe/Paris"}]}); name, mail and pass are set from
 *                    the parameters. Not an object: DRUPAL_E_INVALID_ARGUMENT.
 * Empty name or mail: DRUPAL_E_INVALID_ARGUMENT, nothing sent.
 */
drupal_code drupal_user_register(drupal_call **call, drupal_client *client, const char *name, const char *mail,
                                 const char *password, const char *fields_json, drupal_callback callback,
                                 void *userdata);
drupal_code drupal_user_register_sync(drupal_response **out, drupal_client *client, const char *name,
                                      const char *mail, const char *password, const char *fields_json);

/**
 * Asks for a password reset e-mail (POST /user/password?_format=json) for the account with this
 * name or e-mail address (NULL for the one not given; Drupal uses the name if both are). Success:
 * status 200 with an empty body whether or not the account exists (Drupal never tells: no account
 * enumeration). Both NULL or empty: DRUPAL_E_INVALID_ARGUMENT, nothing sent.
 */
drupal_code drupal_user_password_reset(drupal_call **call, drupal_client *client, const char *name, const char *mail,
                                       drupal_callback callback, void *userdata);
drupal_code drupal_user_password_reset_sync(drupal_response **out, drupal_client *client, const char *name,
                                            const char *mail);

/**
 * Resolves a path or alias with the contrib decoupled_router module
 * (GET /router/translate-path?path=<path>&_format=json). Success: status 200, body = its JSON:
 * {"resolved": URL, "isExternal", "isHomePath", "entity": {"type", "bundle", "id", "uuid",
 * "canonical"}, "label", "jsonapi": {"individual": the entity's JSON:API URL, "resourceName":
 * "node--article", ...}}. Nothing matches: DRUPAL_E_HTTP 404, message "Unable to resolve path
 * <path>.". An empty path or control characters: DRUPAL_E_INVALID_ARGUMENT.
 */
drupal_code drupal_path_resolve(drupal_call **call, drupal_client *client, const char *path,
                                drupal_callback callback, void *userdata);
drupal_code drupal_path_resolve_sync(drupal_response **out, drupal_client *client, const char *path);

/* ---- Streamed files: uploads from a path, downloads to a path or a callback ---------------- */

/**
 * Progress of a transfer, on the thread moving the bytes (a library thread, or the caller's for
 * _sync calls): bytes sent (uploads) or received (downloads) so far, and the total (-1 when
 * unknown). Called as the bytes move, not for every byte; done never goes back: when the call
 * sends its body again (after a CSRF token refresh) or a retry receives the answer again, it
 * holds until the new attempt passes it. Return nonzero to cancel the call
 * (DRUPAL_E_CANCELLED). *_sync functions return DRUPAL_E_STATE here; freeing the client here
 * does not wait (see drupal_client_free). The write callback below runs under the same rules.
 */
typedef int (*drupal_progress_callback)(int64_t done, int64_t total, void *userdata);

/**
 * Receives a download's content piece by piece as it arrives (the data is borrowed for the call),
 * on the same thread as the progress callback; only the body of a successful answer (2xx, but
 * not a 206 Partial Content, which fails the call) comes here: error answers are read whole for
 * the error model. Return nonzero to stop (DRUPAL_E_CANCELLED).
 */
typedef int (*drupal_write_callback)(const void *data, size_t length, void *userdata);

#define DRUPAL_TRANSFER_OPTIONS_VERSION 1

/** Optional parts of the streamed file calls. Initialise with DRUPAL_TRANSFER_OPTIONS_INIT. */
typedef struct drupal_transfer_options {
    unsigned int version;               /* DRUPAL_TRANSFER_OPTIONS_VERSION */
    drupal_progress_callback progress;  /* NULL = none */
    void *progress_userdata;
    drupal_write_callback write;        /* downloads: instead of a path; NULL = none */
    void *write_userdata;
} drupal_transfer_options;

#define DRUPAL_TRANSFER_OPTIONS_INIT { DRUPAL_TRANSFER_OPTIONS_VERSION, NULL, NULL, NULL, NULL }

/**
 * drupal_file_upload with the file at path streamed as it is sent (never read whole into memory).
 * @param path     the file to send: any bytes (not necessarily UTF-8).
 * @param filename the name Drupal stores (UTF-8); NULL = path's base name. Only its base name is
 *                 sent, in `Content-Disposition: file; filename="..."`: quotes, CR, LF and other
 *                 control characters are refused (DRUPAL_E_INVALID_ARGUMENT; Drupal cannot take
 *                 them), other characters, non-ASCII included, go as UTF-8 (which Drupal keeps).
 *                 A NULL filename with a path whose base name is not UTF-8 is
 *                 DRUPAL_E_INVALID_ARGUMENT, nothing sent: Drupal stores text, and the name's
 *                 encoding is not known (give the name to store).
 * @param options  NULL, or a progress callback (done = bytes sent, total = the file's size);
 *                 options->write must be NULL. Copied.
 * A path that is not a readable regular file: DRUPAL_E_INVALID_ARGUMENT before anything is sent.
 * The size sent is the file's when the call starts: a file that grows meanwhile is sent up to
 * that size, one that shrinks fails the call with DRUPAL_E_FILE.
 * Cancelled (progress callback, drupal_call_cancel): DRUPAL_E_CANCELLED.
 */
drupal_code drupal_file_upload_path(drupal_call **call, drupal_client *client, const char *entity_type,
                                    const char *bundle, const char *field, const char *path, const char *filename,
                                    const drupal_transfer_options *options, drupal_callback callback,
                                    void *userdata);
drupal_code drupal_file_upload_path_sync(drupal_response **out, drupal_client *client, const char *entity_type,
                                         const char *bundle, const char *field, const char *path,
                                         const char *filename, const drupal_transfer_options *options);

/**
 * Downloads a file's content: GET url with the client's credentials (they never go to another
 * origin), no _format and no language prefix, the body streamed to path (written to a new file
 * beside it, "<path>.<random>.part", made by this download alone and never through a symbolic
 * link, and renamed to path once complete; on any failure it is removed and nothing else is
 * touched) or to options->write. Over an existing regular file, the new file gets that file's
 * permission bits (rwx of owner, group and others; never set-user-ID, set-group-ID or sticky),
 * as `curl -o` keeps them: a private 0600 file stays private, an executable executable; its
 * owner is the caller's process. A new file gets 0666 less the umask. The client's max_body_size
 * caps it (DRUPAL_E_TOO_LARGE). The bytes are the file as stored: the request asks for no
 * compression (Accept-Encoding: identity) and nothing is decoded, so a .gz file that a server
 * labels Content-Encoding: gzip is saved as the .gz it is.
 * A 206 Partial Content answer (the request asks for no range) is DRUPAL_E_NETWORK, nothing saved.
 * A 304 Not Modified (to a conditional header a request hook added) is a success that leaves path
 * as it was (the copy there is current) and creates nothing.
 * Success: the answer's status and headers, an empty body.
 * @param url  a path under the base URL, or an absolute URL on the site's origin: a public file
 *             ("/sites/default/files/2026-12/a.png") or a private one ("/system/files/...", which
 *             needs credentials that may read it); copied. A file's URL has no language prefix:
 *             with a base URL that ends in one ("https://example.com/fr"), give the absolute URL
 *             (or use drupal_file_entity_download, which reads it from the site's root).
 * @param path the file to write (any bytes, not necessarily UTF-8), or NULL with options->write
 *             (exactly one of them). A directory, FIFO, device or socket there (or a symbolic
 *             link to one) is refused before anything is sent (DRUPAL_E_INVALID_ARGUMENT): the
 *             rename would replace it.
 */
drupal_code drupal_file_download(drupal_call **call, drupal_client *client, const char *url, const char *path,
                                 const drupal_transfer_options *options, drupal_callback callback, void *userdata);
drupal_code drupal_file_download_sync(drupal_response **out, drupal_client *client, const char *url,
                                      const char *path, const drupal_transfer_options *options);

/**
 * drupal_file_download of a file entity's content: GET /entity/file/<file_id>?_format=json first,
 * then its uri[0].url. Errors of either request fail the call (a missing file entity: 404).
 */
drupal_code drupal_file_entity_download(drupal_call **call, drupal_client *client, const char *file_id,
                                        const char *path, const drupal_transfer_options *options,
                                        drupal_callback callback, void *userdata);
drupal_code drupal_file_entity_download_sync(drupal_response **out, drupal_client *client, const char *file_id,
                                             const char *path, const drupal_transfer_options *options);

/* ==== Views and arbitrary requests ============================================================ */

/**
 * GETs a Views REST export (e.g. "/api/articles") with query parameters (exposed filters,
 * "page" for paged displays). The body is a JSON array of rows (empty past the last page).
 * @param query NULL, or a NULL-terminated array of alternating names and values:
 *              {"title", "Article", "page", "1", NULL}; copied. Names must not be empty nor hold
 *              control characters; values are percent-encoded, tabs and line breaks included.
 */
drupal_code drupal_view(drupal_call **call, drupal_client *client, const char *path, const char *const *query,
                        drupal_callback callback, void *userdata);
drupal_code drupal_view_sync(drupal_response **out, drupal_client *client, const char *path,
                             const char *const *query);

/**
 * Pages fetched one after another until there are no more: the library's one paging loop, so a
 * caller never re-implements where the pages end. Create one with drupal_view_pager_new(), call
 * drupal_pager_next() (or _sync) until it gives DRUPAL_OK with a NULL response, then free it.
 * A pager keeps its client alive; once the client is freed, fetching gives DRUPAL_E_STATE.
 * Calls on one pager must not overlap: the one started while another is fetching is refused as
 * it starts (drupal_pager_next() or _sync returns DRUPAL_E_STATE). A failed fetch may be retried.
 */
typedef struct drupal_pager drupal_pager;

/**
 * A pager over a Views REST export: drupal_view() with "page" 0, 1, 2, ... (or from the query's
 * own "page"). The pages end at an empty page, at a page equal to the one before (a display
 * without a full pager ignores "page" and answers the same rows every time), or after max_pages.
 * @param out       receives the pager; owned, free with drupal_pager_free().
 * @param query     as drupal_view(); copied.
 * @param max_pages the most pages to fetch; 0 = 1000.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL or a path or query drupal_view() refuses.
 */
drupal_code drupal_view_pager_new(drupal_pager **out, drupal_client *client, const char *path,
                                  const char *const *query, unsigned int max_pages);

/**
 * Fetches the next page. The callback gets DRUPAL_OK and the page's response (its body is the
 * page's rows), or, once the pages have ended, DRUPAL_OK and a **NULL** response (the one case
 * where a callback's response is NULL); any failure as for drupal_view().
 */
drupal_code drupal_pager_next(drupal_call **call, drupal_pager *pager, drupal_callback callback, void *userdata);
/** Blocking drupal_pager_next: DRUPAL_OK with *out NULL once the pages have ended. */
drupal_code drupal_pager_next_sync(drupal_response **out, drupal_pager *pager);

/**
 * Frees a pager. A drupal_pager_next() in flight still completes; pages a JSON:API pager fetched
 * ahead are cancelled and waited for, so once this returns no request of the pager is in flight
 * (called from a callback, it does not wait). NULL is a no-op.
 */
void drupal_pager_free(drupal_pager *pager);

/* ==== JSON:API ================================================================================ */

/*
 * JSON:API (core jsonapi module) at /jsonapi. type is a resource type as documents write it,
 * "node--article" (entity type--bundle, machine names); id is a resource's UUID. The library sends
 * Accept and (with a body) Content-Type application/vnd.api+json, no ?_format (Drupal refuses one
 * there), auth, cookies and X-CSRF-Token with a cookie session (none with Basic or Bearer).
 * Success bodies are JSON:API documents: parse with drupal_json_parse() and read them with the
 * drupal_json_jsonapi_* helpers. Failures carry every errors[] entry
 * (drupal_response_jsonapi_error_*), and a 422's entries that name a field (source.pointer) as
 * violations (pointer, detail).
 */

/**
 * A JSON:API query: filters, condition groups, sort, paging, include, sparse fieldsets. It writes
 * the query string drupal-jsonapi-params writes for the same calls. Every setter checks its input
 * (DRUPAL_E_INVALID_ARGUMENT with nothing changed): operators Drupal does not accept (LIKE), a
 * value list on an operator taking one value, page limit 0, a malformed resource version. Calls
 * copy the query when they start: it may be changed or freed afterwards. Safe to share between
 * threads.
 */
typedef struct drupal_jsonapi_query drupal_jsonapi_query;

/** @param out receives a new, empty query; owned, free with drupal_jsonapi_query_free(). */
drupal_code drupal_jsonapi_query_new(drupal_jsonapi_query **out);
/** Frees a query. NULL is a no-op. */
void drupal_jsonapi_query_free(drupal_jsonapi_query *query);

/**
 * Adds a filter condition with one value, e.g. ("title", "CONTAINS", "Article", NULL, NULL).
 * Without member_of and key, and for a path not filtered yet, the shorthand filter[path]=value
 * form is used.
 * @param path      a field or a path through relationships ("uid.name").
 * @param op        "=", "<>", ">", ">=", "<", "<=", "STARTS_WITH", "CONTAINS", "ENDS_WITH",
 *                  "IS NULL", "IS NOT NULL"; NULL for "=". (IN, NOT IN, BETWEEN, NOT BETWEEN take
 *                  drupal_jsonapi_query_filter_values().)
 * @param value     the value; NULL only for IS NULL and IS NOT NULL. Percent-encoded, so any text
 *                  goes as given, tabs and line breaks too (names hold no control character).
 * @param member_of NULL, or the condition group this condition joins.
 * @param key       NULL, or the condition's name in the query (default: the path).
 */
drupal_code drupal_jsonapi_query_filter(drupal_jsonapi_query *query, const char *path, const char *op,
                                        const char *value, const char *member_of, const char *key);
/**
 * Adds a filter condition with a list of values: "IN" / "NOT IN" (one or more), "BETWEEN" /
 * "NOT BETWEEN" (exactly two; both ends included).
 * @param values a NULL-terminated array of values; copied.
 */
drupal_code drupal_jsonapi_query_filter_values(drupal_jsonapi_query *query, const char *path, const char *op,
                                               const char *const *values, const char *member_of, const char *key);
/**
 * Adds a condition group; conditions and groups join it with member_of = name.
 * @param conjunction "AND" or "OR".
 * @param member_of   NULL, or the enclosing group: not the group itself, nor one of its members
 *                    (DRUPAL_E_INVALID_ARGUMENT: the site could not build such a tree).
 */
drupal_code drupal_jsonapi_query_group(drupal_jsonapi_query *query, const char *name, const char *conjunction,
                                       const char *member_of);
/** Sorts by a field or path ("uid.name"), descending when descending is non-zero; in the order added. */
drupal_code drupal_jsonapi_query_sort(drupal_jsonapi_query *query, const char *path, int descending);
/** Includes the resources of a relationship path ("uid", "field_tags.vid") in the document. */
drupal_code drupal_jsonapi_query_include(drupal_jsonapi_query *query, const char *path);
/**
 * A sparse fieldset: only these fields of type. A relationship left out here cannot link a
 * resource to what drupal_jsonapi_query_include() added (the included resources still come).
 * @param fields comma-separated names: "title,uid".
 */
drupal_code drupal_jsonapi_query_fields(drupal_jsonapi_query *query, const char *type, const char *fields);
/**
 * page[limit], 1 to PTRDIFF_MAX (0 or a larger value: DRUPAL_E_INVALID_ARGUMENT). Drupal caps it
 * at 50 without an error; the pager follows the cap.
 */
drupal_code drupal_jsonapi_query_page_limit(drupal_jsonapi_query *query, size_t limit);
/** page[offset]: how many resources to skip, at most PTRDIFF_MAX (more: DRUPAL_E_INVALID_ARGUMENT). */
drupal_code drupal_jsonapi_query_page_offset(drupal_jsonapi_query *query, size_t offset);
/** resourceVersion for reads: "rel:latest-version", "rel:working-copy" or "id:<revision id>". */
drupal_code drupal_jsonapi_query_resource_version(drupal_jsonapi_query *query, const char *version);
/** Any other query parameter (not filter, include, page, sort or fields); replaces one of the same name. */
drupal_code drupal_jsonapi_query_param(drupal_jsonapi_query *query, const char *name, const char *value);
/**
 * The encoded query string, without "?".
 * @param out receives the text; owned, free with drupal_free().
 */
drupal_code drupal_jsonapi_query_string(char **out, const drupal_jsonapi_query *query);

/**
 * GETs one resource (id given) or one page of a collection (id NULL).
 * @param query NULL, or the query (copied).
 * Success: 200, a document whose data is the resource or the list.
 */
drupal_code drupal_jsonapi_get(drupal_call **call, drupal_client *client, const char *type, const char *id,
                               const drupal_jsonapi_query *query, drupal_callback callback, void *userdata);
drupal_code drupal_jsonapi_get_sync(drupal_response **out, drupal_client *client, const char *type, const char *id,
                                    const drupal_jsonapi_query *query);

/** GETs what a relationship points to (/{id}/{field}, e.g. "uid"): the related resource(s). */
drupal_code drupal_jsonapi_related(drupal_call **call, drupal_client *client, const char *type, const char *id,
                                   const char *field, const drupal_jsonapi_query *query, drupal_callback callback,
                                   void *userdata);
drupal_code drupal_jsonapi_related_sync(drupal_response **out, drupal_client *client, const char *type,
                                        const char *id, const char *field, const drupal_jsonapi_query *query);

/** GETs a relationship's identifiers (/{id}/relationships/{field}). */
drupal_code drupal_jsonapi_relationship(drupal_call **call, drupal_client *client, const char *type, const char *id,
                                        const char *field, drupal_callback callback, void *userdata);
drupal_code drupal_jsonapi_relationship_sync(drupal_response **out, drupal_client *client, const char *type,
                                             const char *id, const char *field);

/**
 * POSTs a new resource. document is JSON text {"data": {"type", "attributes", "relationships"}}
 * (with "id" for a client-generated UUID); it must be valid JSON (else DRUPAL_E_INVALID_ARGUMENT).
 * Success: 201, the stored resource, a Location header.
 */
drupal_code drupal_jsonapi_create(drupal_call **call, drupal_client *client, const char *type, const char *document,
                                  size_t length, drupal_callback callback, void *userdata);
drupal_code drupal_jsonapi_create_sync(drupal_response **out, drupal_client *client, const char *type,
                                       const char *document, size_t length);
/** drupal_jsonapi_create with a Jansson document (serialised at once; the caller keeps its reference). */
drupal_code drupal_jsonapi_create_json(drupal_call **call, drupal_client *client, const char *type,
                                       const json_t *document, drupal_callback callback, void *userdata);
drupal_code drupal_jsonapi_create_json_sync(drupal_response **out, drupal_client *client, const char *type,
                                            const json_t *document);

/** PATCHes the members in document (its data.id must be id). Success: 200, the whole resource. */
drupal_code drupal_jsonapi_update(drupal_call **call, drupal_client *client, const char *type, const char *id,
                                  const char *document, size_t length, drupal_callback callback, void *userdata);
drupal_code drupal_jsonapi_update_sync(drupal_response **out, drupal_client *client, const char *type,
                                       const char *id, const char *document, size_t length);
/** drupal_jsonapi_update with a Jansson document (serialised at once). */
drupal_code drupal_jsonapi_update_json(drupal_call **call, drupal_client *client, const char *type, const char *id,
                                       const json_t *document, drupal_callback callback, void *userdata);
drupal_code drupal_jsonapi_update_json_sync(drupal_response **out, drupal_client *client, const char *type,
                                            const char *id, const json_t *document);

/** DELETEs a resource. Success: 204, empty body. */
drupal_code drupal_jsonapi_delete(drupal_call **call, drupal_client *client, const char *type, const char *id,
                                  drupal_callback callback, void *userdata);
drupal_code drupal_jsonapi_delete_sync(drupal_response **out, drupal_client *client, const char *type,
                                       const char *id);

/** How drupal_jsonapi_relationship_change() changes a relationship. */
typedef enum drupal_relationship_change {
    DRUPAL_RELATIONSHIP_ADD = 1,     /* POST: add to a to-many relationship (200 + the whole list, or 204) */
    DRUPAL_RELATIONSHIP_REPLACE = 2, /* PATCH: make it exactly these (204 when the result is what was sent) */
    DRUPAL_RELATIONSHIP_REMOVE = 3   /* DELETE: remove from a to-many relationship (204) */
} drupal_relationship_change;

/**
 * Changes a relationship (/{id}/relationships/{field}).
 * @param identifiers JSON text {"data": [{"type": ..., "id": ...}, ...]} (one identifier, or
 *                    null, to replace a to-one relationship).
 */
drupal_code drupal_jsonapi_relationship_change(drupal_call **call, drupal_client *client, const char *type,
                                               const char *id, const char *field, drupal_relationship_change change,
                                               const char *identifiers, size_t length, drupal_callback callback,
                                               void *userdata);
drupal_code drupal_jsonapi_relationship_change_sync(drupal_response **out, drupal_client *client, const char *type,
                                                    const char *id, const char *field,
                                                    drupal_relationship_change change, const char *identifiers,
                                                    size_t length);
/** drupal_jsonapi_relationship_change with Jansson identifiers (serialised at once). */
drupal_code drupal_jsonapi_relationship_change_json(drupal_call **call, drupal_client *client, const char *type,
                                                    const char *id, const char *field,
                                                    drupal_relationship_change change, const json_t *identifiers,
                                                    drupal_callback callback, void *userdata);
drupal_code drupal_jsonapi_relationship_change_json_sync(drupal_response **out, drupal_client *client,
                                                         const char *type, const char *id, const char *field,
                                                         drupal_relationship_change change,
                                                         const json_t *identifiers);

/**
 * Uploads a file to a file field: with id NULL to /{field} (201, a temporary file entity to
 * reference from a resource), with an id to /{id}/{field} (200, attached to that resource).
 * Only the base name of filename is sent; quotes and control characters are refused.
 */
drupal_code drupal_jsonapi_upload(drupal_call **call, drupal_client *client, const char *type, const char *id,
                                  const char *field, const char *filename, const void *data, size_t length,
                                  drupal_callback callback, void *userdata);
drupal_code drupal_jsonapi_upload_sync(drupal_response **out, drupal_client *client, const char *type,
                                       const char *id, const char *field, const char *filename, const void *data,
                                       size_t length);

/**
 * drupal_jsonapi_upload with the file at path streamed as it is sent (never read whole into
 * memory); same routes and answers (id NULL: /{field}, 201; an id: /{id}/{field}, 200).
 * @param path     the file to send: any bytes (not necessarily UTF-8).
 * @param filename the name Drupal stores (UTF-8); NULL = path's base name, which must then be
 *                 UTF-8. Only its base name is sent; quotes and control characters are refused
 *                 (DRUPAL_E_INVALID_ARGUMENT), as drupal_file_upload_path().
 * @param options  NULL, or a progress callback (done = bytes sent, total = the file's size);
 *                 options->write must be NULL. Copied.
 * A path that is not a readable regular file: DRUPAL_E_INVALID_ARGUMENT before anything is sent.
 * Cancelled (progress callback, drupal_call_cancel): DRUPAL_E_CANCELLED.
 */
drupal_code drupal_jsonapi_upload_path(drupal_call **call, drupal_client *client, const char *type, const char *id,
                                       const char *field, const char *path, const char *filename,
                                       const drupal_transfer_options *options, drupal_callback callback,
                                       void *userdata);
drupal_code drupal_jsonapi_upload_path_sync(drupal_response **out, drupal_client *client, const char *type,
                                            const char *id, const char *field, const char *path,
                                            const char *filename, const drupal_transfer_options *options);

/**
 * GETs the entry point /jsonapi: links to every resource type, and for a logged-in caller
 * meta.links.me {href, meta.id} (read it with drupal_json_jsonapi_me()).
 */
drupal_code drupal_jsonapi_entry_point(drupal_call **call, drupal_client *client, drupal_callback callback,
                                       void *userdata);
drupal_code drupal_jsonapi_entry_point_sync(drupal_response **out, drupal_client *client);

/**
 * GETs a link a document gave (links.next, a relationship's links.related) as given. It must be
 * under the client's base URL (DRUPAL_E_INVALID_ARGUMENT otherwise: it is never followed).
 */
drupal_code drupal_jsonapi_follow(drupal_call **call, drupal_client *client, const char *link,
                                  drupal_callback callback, void *userdata);
drupal_code drupal_jsonapi_follow_sync(drupal_response **out, drupal_client *client, const char *link);

/**
 * A pager over a collection (use it with drupal_pager_next() and drupal_pager_free()). Drupal
 * gives no last link and no count and caps page[limit] at 50, so the pages end at the first page
 * without links.next; a page whose resources were all hidden by access checks is skipped. A
 * links.next naming a page the walk already fetched (a cycle) is the server's error:
 * DRUPAL_E_DECODE.
 * @param query       NULL, or the query (copied); its page[offset] is where the walk starts.
 * @param concurrency 0 or 1: follow links.next page by page. 2 to 64: after the first page, fetch
 *                    the following ones by offset (with the page size Drupal used), this many at
 *                    a time, returned in order.
 * @param max_pages   the most pages fetched, skipped ones included (a server answering only
 *                    empty pages cannot keep the walk going); 0 = 100000.
 */
drupal_code drupal_jsonapi_pager_new(drupal_pager **out, drupal_client *client, const char *type,
                                     const drupal_jsonapi_query *query, unsigned int concurrency,
                                     unsigned int max_pages);

#define DRUPAL_REQUEST_OPTIONS_VERSION 1

/** Optional parts of drupal_request(). Initialise with DRUPAL_REQUEST_OPTIONS_INIT. */
typedef struct drupal_request_options {
    unsigned int version;        /* DRUPAL_REQUEST_OPTIONS_VERSION */
    const char *const *query;    /* NULL-terminated name, value, name, value, ... (as drupal_view) */
    const char *const *headers;  /* NULL-terminated "Name: value" strings */
    const void *body;            /* NULL for none */
    size_t body_length;
    int no_format;               /* 1: don't add ?_format=json (JSON:API, /session/token, files) */
} drupal_request_options;

#define DRUPAL_REQUEST_OPTIONS_INIT { DRUPAL_REQUEST_OPTIONS_VERSION, NULL, NULL, NULL, 0, 0 }

/**
 * Sends any request to a path under the base URL, with the client's auth, cookies and CSRF
 * handling. The path must stay under the base URL: "..", "//", a scheme, '?' or control
 * characters give DRUPAL_E_INVALID_ARGUMENT before anything is sent. Header values with control
 * characters (a tab is allowed) are refused too. @param method "GET", "POST", "PATCH", ...; @param options NULL for none; copied.
 */
drupal_code drupal_request(drupal_call **call, drupal_client *client, const char *method, const char *path,
                           const drupal_request_options *options, drupal_callback callback, void *userdata);
drupal_code drupal_request_sync(drupal_response **out, drupal_client *client, const char *method, const char *path,
                                const drupal_request_options *options);

/* ==== Responses =============================================================================== */

/*
 * Accessors never fail on a valid response; on NULL they return 0 / NULL / "" as stated.
 * Strings they return are **borrowed** from the response: valid while it lives.
 */

/** Keeps a response beyond its callback: returns it with one more owner (free each owner). */
drupal_response *drupal_response_retain(drupal_response *response);
/** Releases one owner of a response. NULL is a no-op. */
void drupal_response_free(drupal_response *response);

/** The call's result code (DRUPAL_OK when the status is below 400). */
drupal_code drupal_response_code(const drupal_response *response);
/** The HTTP status, or 0 when no answer arrived (network error, timeout, cancellation). */
int drupal_response_status(const drupal_response *response);
/** What an HTTP failure means, decided by the library (bindings map it to their error classes). */
typedef enum drupal_error_kind {
    DRUPAL_ERROR_KIND_OTHER = 0,          /* success, a failure that is not HTTP, or any other status */
    DRUPAL_ERROR_KIND_AUTHENTICATION = 1, /* 401, and the 400 Drupal answers a login with bad credentials */
    DRUPAL_ERROR_KIND_AUTHORIZATION = 2,  /* 403 */
    DRUPAL_ERROR_KIND_NOT_FOUND = 3,      /* 404 */
    DRUPAL_ERROR_KIND_VALIDATION = 4,     /* 422 */
    DRUPAL_ERROR_KIND_REDIRECT = 5        /* a redirect (3xx) that was not followed */
} drupal_error_kind;

/** The kind of an HTTP failure (DRUPAL_ERROR_KIND_OTHER for NULL and for success). New kinds may
 * be added at the end: treat unknown values as OTHER. */
drupal_error_kind drupal_response_error_kind(const drupal_response *response);

/** The kind of the last failing call made on this thread, beside drupal_last_error_code(): a
 * failed _sync call's (its response's kind), and a failure no response carries, such as a
 * refusal read from an OAuth redirect (drupal_oauth_authorization_finish). DRUPAL_ERROR_KIND_OTHER
 * if none failed yet or the failure has no kind (bad input, network...). */
drupal_error_kind drupal_last_error_kind(void);

/**
 * A description of the failure for humans; "" on success. It is Drupal's own message when Drupal
 * sent a non-empty one, else a summary (e.g. "GET /node/7 answered HTTP 403 Forbidden with no
 * message", the text of a plain-text 500, or the details of every JSON:API error, one a line).
 * Safe to print: a server's control characters are shown as escapes ("\u{1b}"; line breaks and
 * tabs kept) and its text is cut at 4,096 characters with a note (drupal_response_drupal_message()
 * and the violation and JSON:API error accessors keep all of it).
 */
const char *drupal_response_error_message(const drupal_response *response);

/**
 * Drupal's message exactly as sent, empty included: the "message" of a core REST error body
 * ({"message": ""} gives ""), or the "detail" (else "title") of a JSON:API document's first error.
 * NULL when the answer carried no such message (success, plain-text or HTML bodies, no answer).
 */
const char *drupal_response_drupal_message(const drupal_response *response);

/**
 * The system's error number (an errno value such as ENOSPC, EISDIR or EACCES) of a DRUPAL_E_FILE
 * failure, when the system gave one; 0 for NULL, for other codes and for file failures without
 * one (an upload file that shrank while it was sent). drupal_response_error_message() carries
 * its text (strerror) after the file's path.
 */
int drupal_response_os_error(const drupal_response *response);

/**
 * The body bytes (borrowed; NUL-terminated for convenience, but may contain NULs).
 * @param length NULL, or receives the byte count. Returns "" (length 0) for no body.
 */
const char *drupal_response_body(const drupal_response *response, size_t *length);

/** The first value of a header, compared without regard to case; NULL if absent. */
const char *drupal_response_header(const drupal_response *response, const char *name);
/** The number of header fields, in the order received. */
size_t drupal_response_header_count(const drupal_response *response);
/**
 * The index-th header field. @return DRUPAL_OK; DRUPAL_E_NOT_FOUND past the end;
 * DRUPAL_E_INVALID_ARGUMENT for a NULL response. Outputs are borrowed; either may be NULL when
 * not wanted.
 */
drupal_code drupal_response_header_at(const char **name, const char **value, const drupal_response *response,
                                      size_t index);

/**
 * The number of 422 validation violations: the "field: message" lines that follow core REST's
 * "Unprocessable Entity: validation failed." (other 422 messages, such as "... file validation
 * failed.", have none), or one (source.pointer, detail) per JSON:API error.
 */
size_t drupal_response_violation_count(const drupal_response *response);
/** The index-th violation: the field path and its message (borrowed). DRUPAL_E_NOT_FOUND past the end. */
drupal_code drupal_response_violation_at(const char **path, const char **message,
                                         const drupal_response *response, size_t index);

/*
 * JSON:API error documents ({"errors": [{"title", "status", "detail", "source": {"pointer"}, ...}]})
 * are kept whole: every entry, every string, number and boolean member by its dotted path
 * ("title", "status" (a string, as JSON:API sends it), "detail", "code", "source.pointer",
 * "links.via.href", "meta.exception"...). For a 422 each entry with a source.pointer is also a
 * violation (source.pointer, detail); one without (a malformed id, an unknown attribute) is an
 * error entry only.
 */

/** The number of entries in a JSON:API error document's "errors" (0 for other bodies). */
size_t drupal_response_jsonapi_error_count(const drupal_response *response);

/**
 * A member of the index-th JSON:API error by dotted path, e.g. "detail" or "source.pointer".
 * Numbers and booleans are given as text. Borrowed; NULL when the entry or member is absent.
 */
const char *drupal_response_jsonapi_error_member(const drupal_response *response, size_t index,
                                                 const char *member);

/**
 * The member_index-th member (name, value) of the index-th JSON:API error, members sorted by
 * name. Outputs are borrowed; either may be NULL when not wanted.
 * @return DRUPAL_OK; DRUPAL_E_NOT_FOUND past the last error or member; DRUPAL_E_INVALID_ARGUMENT
 *         for a NULL response.
 */
drupal_code drupal_response_jsonapi_error_member_at(const char **name, const char **value,
                                                    const drupal_response *response, size_t index,
                                                    size_t member_index);

/**
 * Parses the body as JSON. @param out receives a **new reference** (json_decref it).
 * @return DRUPAL_OK; DRUPAL_E_DECODE if the body is not JSON; DRUPAL_E_INVALID_ARGUMENT for NULL.
 */
drupal_code drupal_response_json(json_t **out, const drupal_response *response);

/* ==== Events ================================================================================== */

typedef enum drupal_event_type {
    DRUPAL_EVENT_LOGIN = 1,          /* user_name and uid are set */
    DRUPAL_EVENT_LOGOUT = 2,
    DRUPAL_EVENT_REQUEST_START = 3,  /* method and path are set */
    DRUPAL_EVENT_REQUEST_FINISH = 4, /* method, path, status (0 = no answer) and duration_ms */
    DRUPAL_EVENT_RETRY = 5           /* a failed attempt is tried again: method, path, status of the
                                        failed attempt (0 = no answer), duration_ms = the delay
                                        before the retry, attempt = the retry's number (1, 2...) */
} drupal_event_type;

/**
 * One event. Every string is borrowed until the listener returns; unused ones are "". New event
 * types and fields may be added at the end (a listener ignores types it does not know).
 */
typedef struct drupal_event {
    drupal_event_type type;
    const char *method;
    const char *path;
    int status;
    double duration_ms;
    const char *user_name;
    const char *uid;
    int attempt;
} drupal_event;

/** Called on the thread that produced the event (a library thread, or the caller's). */
typedef void (*drupal_event_callback)(const drupal_event *event, void *userdata);

/**
 * Registers a listener for the client's events. Secrets never appear in events.
 * @param id receives a number for drupal_client_remove_listener().
 */
drupal_code drupal_client_add_listener(uint64_t *id, drupal_client *client, drupal_event_callback callback,
                                       void *userdata);
/** Removes a listener. DRUPAL_E_NOT_FOUND for an unknown id. */
drupal_code drupal_client_remove_listener(drupal_client *client, uint64_t id);

/* ==== Mock client (for testing your code without a server) ==================================== */

/**
 * Creates a client backed by an in-memory Drupal with the same semantics as a real site: users
 * admin/admin and editor/editor, bundles article and page, a tags vocabulary, a paged view at
 * /api/articles, ids, 404s, login, CSRF. Use it with every function above; free it with
 * drupal_client_free(). Callbacks run on library threads, as with a live client (most on the
 * client's "drupalsdk-mock" thread, as a live client's run on its curl thread).
 */
drupal_code drupal_mock_client_new(drupal_client **out);

/**
 * Adds a user to a mock client's site. @param roles NULL or a NULL-terminated array of role ids.
 * @param uid NULL, or receives the new user's id; owned, free with drupal_free().
 * DRUPAL_E_INVALID_ARGUMENT if client is not a mock client.
 */
drupal_code drupal_mock_add_user(char **uid, drupal_client *client, const char *name, const char *password,
                                 const char *const *roles);

/**
 * Stores an entity in a mock client's site as if created by the admin.
 * @param id NULL, or receives the new entity's id; owned, free with drupal_free().
 * @param json the entity in Drupal's REST JSON, with its bundle field.
 */
drupal_code drupal_mock_add_entity(char **id, drupal_client *client, const char *entity_type, const char *json);

/**
 * Makes the mock site answer method + path (query ignored) with this status, Content-Type and
 * body, ahead of everything else. Later stubs for the same method + path replace earlier ones.
 */
drupal_code drupal_mock_stub(drupal_client *client, const char *method, const char *path, int status,
                             const char *content_type, const void *body, size_t body_length);

/**
 * Makes a client whose every call fails with DRUPAL_E_UNIMPLEMENTED naming the operation (in its
 * callback, as a call that ran). For tests of code that must not reach a site. Free it with
 * drupal_client_free().
 */
drupal_code drupal_unimplemented_client_new(drupal_client **out);

/** Adds a Views REST export at path over published entities of the type (and bundle, or NULL for
 * any), items_per_page a page (0 = 10), with an exposed "title" contains filter. */
drupal_code drupal_mock_add_view(drupal_client *client, const char *path, const char *entity_type, const char *bundle,
                                 unsigned int items_per_page);
/** Declares a bundle; once a type has any, POST and PATCH refuse the others with 422. */
drupal_code drupal_mock_add_bundle(drupal_client *client, const char *entity_type, const char *bundle);
/** Makes "Authorization: Bearer <token>" authenticate as the user uid. */
drupal_code drupal_mock_add_bearer_token(drupal_client *client, const char *token, const char *uid);
/**
 * Gives the mock's site simple_oauth with this consumer, for testing OAuth code without a server:
 * /oauth/token answers its grants (tokens live 300 s; a refresh rotates the pair, revoking the
 * old one), /oauth/authorize approves a logged-in person's code request at once (an anonymous
 * one is sent to /user/login; a refused request to the front page), and a Bearer token the site
 * did not issue, or that expired, is a 401 on any path (those of drupal_mock_add_bearer_token stay
 * valid). Scopes are not checked. The same client_id again replaces the consumer.
 * @param secret        NULL for a public client (its code requests then need PKCE).
 * @param grants        NULL-terminated: "client_credentials", "password", "refresh_token",
 *                      "authorization_code"; NULL = the first three.
 * @param uid           the user client_credentials tokens act as; NULL = anonymous.
 * @param redirect_uris NULL-terminated redirect URIs it registered (the code grant); NULL = none.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL or empty client_id, an unknown grant, or a
 *         client that is not a mock client.
 */
drupal_code drupal_mock_add_oauth_consumer(drupal_client *client, const char *client_id, const char *secret,
                                           const char *const *grants, const char *uid,
                                           const char *const *redirect_uris);
/**
 * Adds a language to the mock's site, negotiated by its URL prefix (prefix NULL = the langcode):
 * a request under "/fr" is answered in French (Content-Language: fr), each entity in its French
 * translation or, without one, its original; JSON:API's links keep the prefix. English stays the
 * default, without a prefix. What drupal_client_in_language reaches.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for "en", or a langcode or prefix that is not one
 *         path segment of letters, digits, '-' and '_', or a client that is not a mock client.
 */
drupal_code drupal_mock_add_language(drupal_client *client, const char *langcode, const char *prefix);
/**
 * Adds (or replaces) the langcode translation of a stored entity, which turns translation on for
 * its bundle (its entities then show content_translation_source and _outdated). It starts as a
 * copy of the original's translatable fields (title, body, status...) with json's fields over
 * them (REST JSON; bare values taken as one item); shared fields (ids, references) stay the
 * original's. Under the language's prefix, as Drupal answers: core REST's PATCH edits the
 * translation (on an entity without one, the original: a langcode sent changes its language),
 * POST makes a new entity, DELETE deletes the whole entity; JSON:API's PATCH edits it, but is a
 * 405 on an entity without one, and its DELETE is a 405.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for a language not added, json that is not an
 *         object, NULL or empty strings; DRUPAL_E_NOT_FOUND for an entity the site does not have.
 */
drupal_code drupal_mock_add_translation(drupal_client *client, const char *entity_type, const char *id,
                                        const char *langcode, const char *json);
/** Every access token the mock's site issued so far expires now (refresh tokens stay valid): what
 * waiting out their lifetime gives, without the wait. */
drupal_code drupal_mock_expire_oauth_tokens(drupal_client *client);
/** Gives every session a new CSRF token, as a token that went stale would. */
drupal_code drupal_mock_invalidate_csrf_tokens(drupal_client *client);

#define DRUPAL_MOCK_ANSWER_VERSION 1

/** One answer of a stub (drupal_mock_stub_answers). Initialise with DRUPAL_MOCK_ANSWER_INIT. */
typedef struct drupal_mock_answer {
    unsigned int version;           /* DRUPAL_MOCK_ANSWER_VERSION */
    int status;                     /* 100-599 */
    const char *const *headers;     /* NULL-terminated "Name: value" lines (Location, Retry-After...) */
    const void *body;
    size_t body_length;
    drupal_code fail;               /* DRUPAL_OK: answer; else the call fails so, with no answer
                                       (DRUPAL_E_NETWORK, DRUPAL_E_TIMEOUT...) */
} drupal_mock_answer;

#define DRUPAL_MOCK_ANSWER_INIT { DRUPAL_MOCK_ANSWER_VERSION, 200, NULL, NULL, 0, DRUPAL_OK }

/**
 * Makes the mock site answer method + path (when the request carries every query pair given; NULL
 * for any query) with these answers in order, the last one to every later request. Later stubs
 * that match win. answers is copied.
 * @param query NULL, or a NULL-terminated name, value, ... array.
 */
drupal_code drupal_mock_stub_answers(drupal_client *client, const char *method, const char *path,
                                     const char *const *query, const drupal_mock_answer *answers, size_t count);

/**
 * The requests the mock site received (the last 1,000), oldest first, as JSON text:
 * [{"method", "url", "headers": [[name, value], ...], "body": text or null}, ...].
 * @param out receives the text; owned, free with drupal_free().
 */
drupal_code drupal_mock_requests_json(char **out, drupal_client *client);
/** Forgets the requests recorded so far. */
drupal_code drupal_mock_clear_requests(drupal_client *client);

/* ==== JSON helpers (Jansson) ================================================================= */
/*
 * Helpers over Jansson's json_t for Drupal's REST JSON (non-HAL `?_format=json`): parsing bodies,
 * reading entity fields, building POST/PATCH bodies, and reading Views REST export rows.
 *
 * Drupal's entity shape: an object keyed by field name whose every field is an array of item
 * objects, even single-valued ones: {"title":[{"value":"Hi"}], "uid":[{"target_id":1}],
 * "body":[{"value":"<p>x</p>","format":"basic_html","summary":""}], "field_image":[]}.
 *
 * References, as in Jansson's docs: a "new reference" is the caller's (json_decref it); a
 * "borrowed reference" belongs to the json_t it came from and stays valid while that json_t lives
 * and the part it came from is not modified (do not json_decref it; json_incref it to keep it).
 * Borrowed strings (const char *) follow the same rule. These functions call no callbacks and use
 * no global state beyond the calling thread's last error; a json_t may be read from several
 * threads at once but must not be modified while others read it.
 *
 * On failure every output parameter that is not NULL is reset (pointers to NULL, numbers to 0),
 * and drupal_last_error() names the function, field, item or column involved.
 *
 * Strings are handed out whole or not at all: a JSON string holding a NUL (only a json_t you
 * built can hold one, e.g. with json_stringn; drupal_json_parse refuses "\u0000") is
 * DRUPAL_E_DECODE from every reader that returns a const char *, and a JSON:API resource whose
 * type or id holds one is never found by drupal_json_jsonapi_included.
 */

/**
 * Parses a response body into a JSON value.
 *
 * Any JSON value is accepted at the top level (Drupal's /user/login_status answers a bare 0 or 1).
 * Strings containing "\u0000" are refused, so every string read later is a whole C string.
 *
 * @param out    receives a **new reference** to the parsed value (json_decref it).
 * @param body   the body bytes; need not be NUL-terminated; may be NULL only if length is 0.
 * @param length number of bytes in body.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT if out is NULL, body is NULL with length > 0, or
 *         length is above PTRDIFF_MAX (no buffer is that large: a negative size cast to size_t);
 *         DRUPAL_E_DECODE if the body is empty, is not JSON, or is not valid UTF-8 (the message
 *         carries Jansson's text and the line and column); DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_parse(json_t **out, const char *body, size_t length);

/* ---- Reading entity fields --------------------------------------------------------------- */
/*
 * Common to the readers below:
 *  - entity is a JSON object (an entity, or any object of fields). NULL entity or NULL, empty or
 *    non-UTF-8 names -> DRUPAL_E_INVALID_ARGUMENT; an entity that is not an object ->
 *    DRUPAL_E_DECODE.
 *  - A missing field, an index past the last item, a missing property, or a JSON null value ->
 *    DRUPAL_E_NOT_FOUND (a field the user may not view is omitted by Drupal, so "missing" is a
 *    normal answer). A value of the wrong type -> DRUPAL_E_DECODE.
 *
 * The value readers (drupal_json_field_string/_int/_bool/_double/_target_id*) read the main
 * property ("value" or "target_id") of an item and also accept the flat shapes Drupal uses
 * elsewhere: a bare item ("title":["Hi"]) and a bare field ("type":"article", view rows such as
 * {"nid":"1"}, login's current_user {"uid":"1"}). drupal_json_field_count/_item/_property* accept
 * only the array-of-items shape.
 */

/**
 * Number of items in a field ("field_image":[] has 0).
 *
 * @param out    receives the count.
 * @param entity the entity object.
 * @param field  field name, e.g. "field_tags".
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the field is missing;
 *         DRUPAL_E_DECODE if entity is not an object or the field is not an array.
 */
drupal_code drupal_json_field_count(size_t *out, const json_t *entity, const char *field);

/**
 * The index-th item of a field, e.g. one tag of "field_tags".
 *
 * @param out    receives a **borrowed reference** to the item (usually an object).
 * @param entity the entity object.
 * @param field  field name.
 * @param index  0-based item index.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the field is missing or
 *         index >= its item count; DRUPAL_E_DECODE if the field is not an array.
 */
drupal_code drupal_json_field_item(json_t **out, const json_t *entity, const char *field, size_t index);

/**
 * A named property of the index-th item of a field, as any JSON value
 * (e.g. "comment_count" of a comment field item, "pid" of a path item).
 *
 * @param out      receives a **borrowed reference** to the property's value (may be JSON null).
 * @param entity   the entity object.
 * @param field    field name.
 * @param index    0-based item index.
 * @param property property name, e.g. "format", "target_uuid", "alias".
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the field, item or
 *         property is missing; DRUPAL_E_DECODE if the field is not an array or the item not an
 *         object.
 */
drupal_code drupal_json_field_property_json(json_t **out, const json_t *entity, const char *field,
                                            size_t index, const char *property);

/**
 * A named string property of the index-th item of a field,
 * e.g. drupal_json_field_property(&format, node, "body", 0, "format") gives "basic_html".
 *
 * @param out      receives a **borrowed** NUL-terminated UTF-8 string (valid while entity lives
 *                 and the field is not modified).
 * @param entity   the entity object.
 * @param field    field name.
 * @param index    0-based item index.
 * @param property property name.
 * @return as drupal_json_field_property_json, plus DRUPAL_E_NOT_FOUND if the property is null
 *         and DRUPAL_E_DECODE if it is not a string.
 */
drupal_code drupal_json_field_property(const char **out, const json_t *entity, const char *field,
                                       size_t index, const char *property);

/**
 * The first value of a field as a string (field[0].value), e.g. "title", "langcode", "uuid".
 *
 * @param out    receives a **borrowed** NUL-terminated UTF-8 string (valid while entity lives and
 *               the field is not modified).
 * @param entity the entity object.
 * @param field  field name.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the field is missing,
 *         empty ([]), or its value is null; DRUPAL_E_DECODE if the value is not a string.
 */
drupal_code drupal_json_field_string(const char **out, const json_t *entity, const char *field);

/**
 * The first value of a field as an integer, e.g. "nid". Accepts a JSON integer and a string
 * holding a decimal integer ("nid":"1" in view rows, "uid":"1" in the login response).
 *
 * @param out    receives the value.
 * @param entity the entity object (or a view row, or any flat object).
 * @param field  field name.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND as drupal_json_field_string;
 *         DRUPAL_E_DECODE if the value is neither, or does not fit in int64_t.
 */
drupal_code drupal_json_field_int(int64_t *out, const json_t *entity, const char *field);

/**
 * The first value of a field as a boolean, e.g. "status", "promote". Accepts true/false, the
 * integers 0/1 and the strings "0"/"1" (as Views sends them).
 *
 * @param out    receives 1 for true, 0 for false.
 * @param entity the entity object.
 * @param field  field name.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND as drupal_json_field_string;
 *         DRUPAL_E_DECODE for any other value.
 */
drupal_code drupal_json_field_bool(int *out, const json_t *entity, const char *field);

/**
 * The first value of a field as a double. Accepts JSON reals and integers and strings holding a
 * JSON number (decimal fields arrive as "12.50"); independent of the C locale.
 *
 * @param out    receives the value.
 * @param entity the entity object.
 * @param field  field name.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND as drupal_json_field_string;
 *         DRUPAL_E_DECODE if the value is not a number.
 */
drupal_code drupal_json_field_double(double *out, const json_t *entity, const char *field);

/**
 * The integer target_id of the index-th item of an entity reference field,
 * e.g. "uid" or each item of "field_tags". Accepts integer strings too.
 *
 * @param out    receives the target ID.
 * @param entity the entity object.
 * @param field  field name.
 * @param index  0-based item index.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the field or item is
 *         missing or target_id is null ("parent":[{"target_id":null}]); DRUPAL_E_DECODE if
 *         target_id is not an integer.
 */
drupal_code drupal_json_field_target_id(int64_t *out, const json_t *entity, const char *field, size_t index);

/**
 * The string target_id of the index-th item of a reference to a config entity,
 * e.g. node "type" -> "article", term "vid" -> "tags".
 *
 * @param out    receives a **borrowed** NUL-terminated UTF-8 string (valid while entity lives
 *               and the field is not modified).
 * @param entity the entity object.
 * @param field  field name.
 * @param index  0-based item index.
 * @return as drupal_json_field_target_id, but DRUPAL_E_DECODE if target_id is not a string
 *         (use drupal_json_field_target_id for integer IDs).
 */
drupal_code drupal_json_field_target_id_string(const char **out, const json_t *entity,
                                               const char *field, size_t index);

/* ---- Building entity bodies -------------------------------------------------------------- */
/*
 * Common to the setters below: entity must be a JSON object (else DRUPAL_E_INVALID_ARGUMENT);
 * field must be a non-empty UTF-8 name; string values must be non-NULL UTF-8 (copied). A setter
 * replaces the whole field with a one-item array; DRUPAL_E_NO_MEMORY if an allocation fails,
 * leaving the entity as it was. Only send fields that exist on the bundle (Drupal answers 500
 * for unknown ones).
 */

/**
 * The field that carries the bundle for an entity type: node -> "type",
 * taxonomy_term -> "vid", comment -> "comment_type", media and menu_link_content -> "bundle",
 * block_content -> "type", any other type -> "type".
 *
 * @param out         receives a static string (never free it).
 * @param entity_type entity type ID, e.g. "node".
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for a NULL, empty or non-UTF-8 entity_type;
 *         DRUPAL_E_NOT_FOUND for types without bundles ("user", "file").
 */
drupal_code drupal_json_bundle_key(const char **out, const char *entity_type);

/**
 * A new entity body holding only its bundle field, e.g. ("node", "article") ->
 * {"type":[{"target_id":"article"}]}; ("user", NULL) -> {}.
 *
 * @param out         receives a **new reference** to the entity object (json_decref it).
 * @param entity_type entity type ID; see drupal_json_bundle_key.
 * @param bundle      bundle name (copied); required for types with bundles; for "user" and
 *                    "file" it must be NULL (or the type's own name) and adds nothing.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL out, a bad entity_type, a NULL, empty or
 *         non-UTF-8 bundle where one is needed, or a bundle for a type without bundles;
 *         DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_entity_new(json_t **out, const char *entity_type, const char *bundle);

/**
 * Sets field to [{"value": value}] with a string value, e.g. "title".
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  UTF-8 string (copied).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_string(json_t *entity, const char *field, const char *value);

/**
 * Sets field to [{"value": value}] with an integer value, e.g. "weight".
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  the integer.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_int(json_t *entity, const char *field, int64_t value);

/**
 * Sets field to [{"value": true|false}], e.g. "status".
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  0 for false, anything else for true.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_bool(json_t *entity, const char *field, int value);

/**
 * Sets field to [{"value": value}] with a real value (float fields).
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  a finite double.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT (also for NaN and infinities); DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_double(json_t *entity, const char *field, double value);

/**
 * Sets a formatted text field: [{"value": value, "format": format}] plus "summary" if given,
 * e.g. ("body", "<p>Hi</p>", "basic_html", NULL).
 * @param entity  the entity object, modified.
 * @param field   field name.
 * @param value   the markup, UTF-8 (copied).
 * @param format  text format ID, e.g. "basic_html" (non-empty UTF-8, copied).
 * @param summary summary for text-with-summary fields (copied), or NULL to leave it out.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_text(json_t *entity, const char *field, const char *value,
                                       const char *format, const char *summary);

/**
 * Sets an entity reference to one content entity: [{"target_id": target_id}], e.g. "uid".
 * @param entity    the entity object, modified.
 * @param field     field name.
 * @param target_id the referenced entity's ID.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_target_id(json_t *entity, const char *field, int64_t target_id);

/**
 * Sets a reference to one config entity: [{"target_id": "<target_id>"}], e.g. ("vid", "tags").
 * @param entity    the entity object, modified.
 * @param field     field name.
 * @param target_id the config entity's ID (non-empty UTF-8, copied).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_target_id_string(json_t *entity, const char *field,
                                                   const char *target_id);

/**
 * Sets a field to any JSON value: an array is used as the field's item list as is; any other
 * value becomes the field's only item ([value]). value is **not stolen**: the entity takes its
 * own reference, and the caller keeps (and still decrefs) theirs.
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  the items array or one item; must not be entity itself.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT (NULL value, value == entity, ...);
 *         DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set(json_t *entity, const char *field, json_t *value);

/**
 * As drupal_json_field_set, but **steals** the caller's reference to value, even on failure
 * (as Jansson's json_object_set_new does), so drupal_json_field_set_new(e, "f", json_array())
 * leaks nothing. Exception: if value == entity, the reference is left with the caller.
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param value  the items array or one item (**stolen**).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_set_new(json_t *entity, const char *field, json_t *value);

/**
 * Appends one item to a field, creating the field if it is missing, e.g. one more tag:
 * item {"target_id": 3} on "field_tags". item is **not stolen**: the entity takes its own
 * reference.
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param item   the item (usually an object); must not be entity or the field's own array.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT (also if the field exists and is not an array);
 *         DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_append(json_t *entity, const char *field, json_t *item);

/**
 * As drupal_json_field_append, but **steals** the caller's reference to item, even on failure,
 * e.g. drupal_json_field_append_new(node, "field_tags", json_pack("{s:i}", "target_id", 3)).
 * Exception: if item == entity, the reference is left with the caller.
 * @param entity the entity object, modified.
 * @param field  field name.
 * @param item   the item (**stolen**).
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT (also if the field exists and is not an array);
 *         DRUPAL_E_NO_MEMORY.
 */
drupal_code drupal_json_field_append_new(json_t *entity, const char *field, json_t *item);

/* ---- Views REST export rows -------------------------------------------------------------- */
/*
 * A REST export view answers with an array of rows, each a flat object of column -> string:
 * [{"nid":"1","title":"Article 1"}, ...]; a page past the end is []. A row can also be read with
 * the field readers above, e.g. drupal_json_field_int(&nid, row, "nid").
 */

/**
 * Checks that a parsed view response is an array of rows.
 * @param out      receives a **borrowed reference** to the rows array (response itself).
 * @param response the parsed body.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT for NULL out or response; DRUPAL_E_DECODE if the
 *         response is not an array.
 */
drupal_code drupal_json_view_rows(json_t **out, const json_t *response);

/**
 * Number of rows on this page of a view.
 * @param out  receives the count (0 past the last page).
 * @param rows the rows array.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_DECODE if rows is not an array.
 */
drupal_code drupal_json_view_count(size_t *out, const json_t *rows);

/**
 * One row of a view.
 * @param out   receives a **borrowed reference** to the row object.
 * @param rows  the rows array.
 * @param index 0-based row index.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if index is out of range;
 *         DRUPAL_E_DECODE if rows is not an array or the row not an object.
 */
drupal_code drupal_json_view_row(json_t **out, const json_t *rows, size_t index);

/**
 * A string column of a view row, e.g. (rows, 0, "title") -> "Article 1".
 * @param out    receives a **borrowed** NUL-terminated UTF-8 string (valid while rows lives and
 *               is not modified).
 * @param rows   the rows array.
 * @param row    0-based row index.
 * @param column column (field) name as configured in the view.
 * @return DRUPAL_OK; DRUPAL_E_INVALID_ARGUMENT; DRUPAL_E_NOT_FOUND if the row or column is
 *         missing or the cell is null; DRUPAL_E_DECODE if the cell is not a string (see
 *         drupal_json_view_column_copy) or rows/row have the wrong type.
 */
drupal_code drupal_json_view_column(const char **out, const json_t *rows, size_t row, const char *column);

/**
 * A column of a view row as text copied into the caller's buffer. Strings are copied as they
 * are; numbers and booleans are written as their JSON text ("42", "12.5", "true").
 * Like snprintf: when the text does not fit, as much as fits is written (NUL-terminated, possibly
 * ending inside a UTF-8 sequence), *length still receives the full length, and the call returns
 * DRUPAL_E_TOO_LARGE; call with (NULL, 0, &length) to learn the size needed (length + 1).
 * @param buffer receives the NUL-terminated text (may be NULL if size is 0).
 * @param size   size of buffer in bytes, including room for the NUL.
 * @param length receives the text's length without the NUL (may be NULL).
 * @param rows   the rows array.
 * @param row    0-based row index.
 * @param column column name.
 * @return DRUPAL_OK; DRUPAL_E_TOO_LARGE if buffer is too small; DRUPAL_E_INVALID_ARGUMENT (also
 *         for NULL buffer with size > 0); DRUPAL_E_NOT_FOUND as drupal_json_view_column;
 *         DRUPAL_E_DECODE if the cell is an object or array, a string holding a NUL (one a caller
 *         built with json_stringn; nothing is copied and *length is 0), or rows/row have the
 *         wrong type.
 */
drupal_code drupal_json_view_column_copy(char *buffer, size_t size, size_t *length, const json_t *rows,
                                         size_t row, const char *column);

/* ---- Reading JSON:API documents ------------------------------------------------------------ */
/*
 * document is a parsed JSON:API answer, resource one of its resource objects. Out values are
 * borrowed from the document (valid while it lives). NULL or non-UTF-8 arguments ->
 * DRUPAL_E_INVALID_ARGUMENT; a document or resource that is not an object, or a member of the
 * wrong shape (attributes or a relationship that is not an object, relationship data that is not an
 * identifier, a list or null, included that is not an array or holds an item that is not an
 * object, a link that is not a URL or an object with a string href) -> DRUPAL_E_DECODE; something the document does not hold (a member
 * absent or null) -> DRUPAL_E_NOT_FOUND.
 */

/** Number of primary resources: a collection's length, 1 for an individual read, 0 for data null. */
drupal_code drupal_json_jsonapi_count(size_t *out, const json_t *document);
/** The index-th primary resource (index 0 for an individual read); borrowed. */
drupal_code drupal_json_jsonapi_resource(json_t **out, const json_t *document, size_t index);
/** An attribute's value (DRUPAL_E_NOT_FOUND when missing or null); borrowed. */
drupal_code drupal_json_jsonapi_attribute(json_t **out, const json_t *resource, const char *name);
/** A string attribute (DRUPAL_E_DECODE if it is not a string or holds a NUL); borrowed. */
drupal_code drupal_json_jsonapi_attribute_string(const char **out, const json_t *resource, const char *name);
/**
 * Number of identifiers in a relationship: 1 or 0 for a to-one ("data": null is 0), the list's
 * length for a to-many. DRUPAL_E_NOT_FOUND when the resource does not carry the relationship (a
 * sparse fieldset may leave it out); DRUPAL_E_DECODE when it or its data has the wrong shape
 * ("data": "oops" is not 0).
 */
drupal_code drupal_json_jsonapi_relationship_count(size_t *out, const json_t *resource, const char *field);
/** The type and id of a relationship's index-th identifier; borrowed. DRUPAL_E_DECODE if either
 * is not a string or holds a NUL. */
drupal_code drupal_json_jsonapi_relationship_id(const char **type, const char **id, const json_t *resource,
                                                const char *field, size_t index);
/** The resource of "included" with this type and id; borrowed. DRUPAL_E_NOT_FOUND if not included
 * (a resource whose type or id holds a NUL matches nothing); DRUPAL_E_DECODE if an item of
 * included, any of them, is not an object. */
drupal_code drupal_json_jsonapi_included(json_t **out, const json_t *document, const char *type, const char *id);
/**
 * The included resource that a relationship's index-th identifier points to: how a caller walks
 * from a node to its included author or tags. DRUPAL_E_NOT_FOUND when the identifier is missing
 * or its resource was not included (not asked for with include, or no access).
 */
drupal_code drupal_json_jsonapi_related(json_t **out, const json_t *document, const json_t *resource,
                                        const char *field, size_t index);
/** The href of a top-level link ("next", "self"); DRUPAL_E_NOT_FOUND when absent or null (no next
 * page); DRUPAL_E_DECODE if it is neither a string nor an object with a string href ({"href": 5}
 * is not the last page), or holds a NUL. */
drupal_code drupal_json_jsonapi_link(const char **out, const json_t *document, const char *name);
/** The logged-in user's UUID from the entry point's meta.links.me {href, meta.id}; borrowed.
 * DRUPAL_E_NOT_FOUND for anonymous (meta, meta.links or meta.links.me absent or null);
 * DRUPAL_E_DECODE if one of them is not an object, or me has no string meta.id, or it holds a NUL. */
drupal_code drupal_json_jsonapi_me(const char **out, const json_t *entry_point);

#ifdef __cplusplus
}
#endif

#endif /* DRUPALSDK_H */

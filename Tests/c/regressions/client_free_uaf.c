/* Regression (fixed): drupal_client_free raced with the client's curl thread: CurlEngine.stop()
 * called curl_multi_wakeup(multi) after the engine thread could already have run shutDown() ->
 * curl_multi_cleanup(multi), a use after free. Now every wake-up happens under the inbox lock and
 * never once the loop is stopped. Run under valgrind (ASan can't see it: the read happened inside
 * uninstrumented libcurl). No server needed. */
#include <stdio.h>
#include <drupalsdk.h>
int main(void) {
    int i;
    for (i = 0; i < 20; i++) {
        drupal_client *c = NULL;
        drupal_response *r = NULL;
        drupal_client_new(&c, "http://127.0.0.1:1", NULL);  /* nothing listens: fails at once */
        drupal_entity_get_sync(&r, c, "node", "1");         /* starts the client's curl thread */
        drupal_response_free(r);
        drupal_client_free(c);                              /* <- invalid read in curl_multi_wakeup */
    }
    puts("done");
    return 0;
}

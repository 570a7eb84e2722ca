#ifndef HEADWAY_WEB_EXTENSION_H
#define HEADWAY_WEB_EXTENSION_H

/* The web-process extension that Headway's booster loads into WebKit's web processes. Its only
 * entry point is webkit_web_extension_initialize_with_user_data, which WebKit looks up itself.
 * User data: "(bas)" — prefetch every host, and the extra hosts besides the page's own. */

#endif

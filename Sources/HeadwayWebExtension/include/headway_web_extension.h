#ifndef HEADWAY_WEB_EXTENSION_H
#define HEADWAY_WEB_EXTENSION_H

#include <webkit2/webkit-web-extension.h>

/* The web-process extension Headway loads into WebKit's web processes. WebKit looks up its entry
 * point, webkit_web_extension_initialize_with_user_data, itself; the settings it reads are
 * described in extension.c. */

/* Gives the isolated world `world_name` its bridge to the page's world (bridge.c): `runner` and
 * `isolated` are the JavaScript sources evaluated in each frame's page and isolated worlds. */
void headway_bridge_start(const char *world_name, const char *runner, const char *isolated);

#endif

#include <webkit2/webkit-web-extension.h>

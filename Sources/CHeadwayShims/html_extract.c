#include "headway_shims.h"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <string.h>
#include <strings.h>

void hw_html_init(void) { xmlInitParser(); }

static int rel_has(const char *rel, const char *word) {
    size_t n = strlen(word);
    const char *p = rel;
    while (p && *p) {
        while (*p == ' ' || *p == '\t' || *p == '\n') p++;
        const char *end = p;
        while (*end && *end != ' ' && *end != '\t' && *end != '\n') end++;
        if ((size_t)(end - p) == n && strncasecmp(p, word, n) == 0) return 1;
        p = end;
    }
    return 0;
}

static void report_attr(xmlNodePtr node, const char *attr, const char *kind,
                        hw_html_ref_callback callback, void *context) {
    xmlChar *value = xmlGetProp(node, (const xmlChar *)attr);
    if (value) {
        if (*value) callback(kind, (const char *)value, context);
        xmlFree(value);
    }
}

static void walk(xmlNodePtr node, hw_html_ref_callback callback, void *context) {
    for (; node; node = node->next) {
        if (node->type == XML_ELEMENT_NODE && node->name) {
            const char *name = (const char *)node->name;
            if (strcasecmp(name, "base") == 0) {
                report_attr(node, "href", "base", callback, context);
            } else if (strcasecmp(name, "a") == 0 || strcasecmp(name, "area") == 0) {
                report_attr(node, "href", "anchor", callback, context);
            } else if (strcasecmp(name, "img") == 0) {
                report_attr(node, "src", "image", callback, context);
                report_attr(node, "srcset", "srcset", callback, context);
            } else if (strcasecmp(name, "source") == 0) {
                report_attr(node, "src", "image", callback, context);
                report_attr(node, "srcset", "srcset", callback, context);
            } else if (strcasecmp(name, "script") == 0) {
                report_attr(node, "src", "script", callback, context);
            } else if (strcasecmp(name, "link") == 0) {
                xmlChar *rel = xmlGetProp(node, (const xmlChar *)"rel");
                if (rel) {
                    const char *r = (const char *)rel;
                    if (rel_has(r, "stylesheet")) report_attr(node, "href", "stylesheet", callback, context);
                    else if (rel_has(r, "preload")) report_attr(node, "href", "preload", callback, context);
                    else if (rel_has(r, "icon")) report_attr(node, "href", "icon", callback, context);
                    xmlFree(rel);
                }
            } else if (strcasecmp(name, "style") == 0) {
                xmlChar *text = xmlNodeGetContent(node);
                if (text) {
                    if (*text) callback("style", (const char *)text, context);
                    xmlFree(text);
                }
            }
            report_attr(node, "style", "style", callback, context);
        }
        if (node->children) walk(node->children, callback, context);
    }
}

void hw_html_extract(const char *html, int length, const char *encoding,
                     hw_html_ref_callback callback, void *context) {
    htmlDocPtr doc = htmlReadMemory(html, length, NULL, encoding,
                                    HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                        HTML_PARSE_NONET | HTML_PARSE_NOBLANKS);
    if (!doc) return;
    walk(xmlDocGetRootElement(doc), callback, context);
    xmlFreeDoc(doc);
}

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

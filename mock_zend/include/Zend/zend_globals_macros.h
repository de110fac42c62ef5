/*
 * zend-async-ref: mock Zend engine.
 *
 * The accessor macros of the engine's globals. The mock has one set,
 * the executor globals: EG() and its types come from zend_globals.h, which
 * this header includes, so code that includes zend_globals_macros.h for
 * EG() compiles as with PHP.
 */
#ifndef ZEND_GLOBALS_MACROS_H
#define ZEND_GLOBALS_MACROS_H

#include "zend_globals.h"

#endif /* ZEND_GLOBALS_MACROS_H */

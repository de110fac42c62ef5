/*
 * zend-async-ref: mock Zend engine. Signal handling (PHP's zend_signal.h)
 * as a build without ZEND_SIGNALS sees it.
 *
 * The mock engine never defers signals: ZEND_SIGNALS is not defined, so,
 * as in such a PHP build, zend_signal_startup() and the other lifecycle
 * calls expand to nothing, zend_signal()/zend_sigaction() are the C
 * library's signal()/sigaction(), and there are no signal globals (SIGG).
 * Code that touches SIGG does so under #ifdef ZEND_SIGNALS, as PHP's own
 * SAPIs do.
 */
#ifndef ZEND_SIGNAL_H
#define ZEND_SIGNAL_H

#include <signal.h>

#ifdef ZEND_SIGNALS
#error "zend-async-ref's mock engine is built without ZEND_SIGNALS"
#endif

#define ZEND_SIGNAL_BLOCK_INTERRUPTIONS()
#define ZEND_SIGNAL_UNBLOCK_INTERRUPTIONS()
#define zend_signal_activate()
#define zend_signal_deactivate()
#define zend_signal_startup()
#define zend_signal_init()
#define zend_signal(signo, handler) signal(signo, handler)
#define zend_sigaction(signo, act, oldact) sigaction(signo, act, oldact)

#endif /* ZEND_SIGNAL_H */

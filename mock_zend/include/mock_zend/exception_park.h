/*
 * zend-async-ref: mock Zend engine - parking the exception in flight.
 *
 * Code that must run other code while an exception is in flight (a driver
 * call from a method that is already failing, a coroutine switch, a
 * destructor) parks EG(exception) and EG(prev_exception), runs, and puts
 * them back. This is PHP's zend_exception_save()/zend_exception_restore()
 * on a caller's own slots (a parking may outlive a switch to another flow,
 * so EG(prev_exception) cannot hold it), with the one choice PHP makes
 * implicitly named at the call site: when an exception was raised while
 * parked, which of the two is in flight afterwards.
 *
 *   zend_mock_parked_exception parked = zend_mock_exception_park();
 *   run_driver_code();
 *   zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_STAYS_CURRENT);
 *
 * Ownership: references move between EG and the parked slots; none is
 * added or dropped (except that zend_exception_set_previous releases a
 * link it refuses, as a cycle). Threading: the engine's thread. C and C++
 * (C++ callers may use mock_zend::ParkedException, parked_exception.h).
 */
#ifndef MOCK_ZEND_EXCEPTION_PARK_H
#define MOCK_ZEND_EXCEPTION_PARK_H

#include "Zend/zend_exceptions.h"

BEGIN_EXTERN_C()

/* What unparking does when an exception was raised while parked (either
 * way nothing is lost: one of the two carries the other in its previous
 * chain). Each EG slot is put back by the same rule: EG(exception) from
 * the parked exception, EG(prev_exception) from the parked previous. */
typedef enum {
  /* PHP's zend_exception_restore() order: the exception raised meanwhile
   * stays in flight and the parked one is appended to its previous chain
   * (the newer exception wins and carries the older one). */
  ZEND_MOCK_PARKED_BECOMES_PREVIOUS,
  /* The parked exception is in flight again and the one raised meanwhile
   * is appended to the parked one's previous chain (code that ran on the
   * side does not replace the failure the caller is reporting). */
  ZEND_MOCK_PARKED_STAYS_CURRENT,
} zend_mock_exception_order;

/* What was in flight when parked; both NULL when nothing was. Owned
 * references until unparked. */
typedef struct {
  zend_object *exception;      /* EG(exception) */
  zend_object *prev_exception; /* EG(prev_exception) */
} zend_mock_parked_exception;

/* Moves EG(exception) and EG(prev_exception) out: both are NULL
 * afterwards. */
static zend_always_inline zend_mock_parked_exception
zend_mock_exception_park(void) {
  zend_mock_parked_exception parked;
  parked.exception = EG(exception);
  parked.prev_exception = EG(prev_exception);
  EG(exception) = NULL;
  EG(prev_exception) = NULL;
  return parked;
}

/* Out of line part of zend_mock_exception_unpark() (something parked). */
ZEND_API void zend_mock_exception_unpark_slots(
    zend_mock_parked_exception *parked, zend_mock_exception_order order);

/* Puts the parked exceptions back in flight by `order` (when EG's slot is
 * empty, the parked one simply goes back). `parked` is empty afterwards,
 * so a second call does nothing. An unknown `order` is treated as
 * ZEND_MOCK_PARKED_BECOMES_PREVIOUS (PHP's). */
static zend_always_inline void zend_mock_exception_unpark(
    zend_mock_parked_exception *parked, zend_mock_exception_order order) {
  if (UNEXPECTED(parked->exception != NULL || parked->prev_exception != NULL)) {
    zend_mock_exception_unpark_slots(parked, order);
  }
}

/* Moves the exception in flight out of EG and returns it (the caller owns
 * the reference), with EG(prev_exception) appended to its previous chain;
 * NULL, with EG untouched, when nothing is in flight. */
ZEND_API zend_object *zend_mock_exception_take(void);

END_EXTERN_C()

#endif /* MOCK_ZEND_EXCEPTION_PARK_H */

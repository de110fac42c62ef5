// zend-async-ref: mock Zend engine. The monotonic clock (zend_hrtime.h):
// zend_hrtime() itself is inline; CLOCK_MONOTONIC needs no preparation.

extern "C" {
#include "zend_hrtime.h"
}

extern "C" void zend_startup_hrtime(void) {}

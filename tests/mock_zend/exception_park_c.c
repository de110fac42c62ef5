/* Exception parking called from C11 (exception_park_c.h). */
#include "exception_park_c.h"

#include "mock_zend/exception_park.h"

void exception_park_c_throw_while_parked(void) {
  zend_mock_parked_exception parked = zend_mock_exception_park();
  zend_throw_error(NULL, "raised in C");
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_STAYS_CURRENT);
}

# ZAR_PDO_POOL_SOURCE: building pdo_sim with a PDO connection pool of your
# own (docs/pdo_pool.md, "Your own pool").
#
# pdo_sim's PDO core reaches its pool only through ext/pdo/pdo_pool.h. The
# pool's sources - by default the reference's (pdo_sim/src/pdo/pdo_pool*.c) -
# define every function that header declares; given ZAR_PDO_POOL_SOURCE,
# pdo_sim is built with your files in their place: one or more absolute
# paths (a CMake list), usually a single pdo_pool.c. Your sources are
# compiled as ext/pdo's own: "pdo_pool.h", "php_pdo_driver.h",
# "php_pdo_int.h", "php.h" and "Zend/zend_async_API.h" resolve, and warnings
# are not errors.
#
# zar_pdo_pool_check_sources(<paths>) stops the configuration with a clear
# error unless every path is an absolute path to an existing file. Run as a
# script it checks ZAR_PDO_POOL_SOURCE (what the tests do):
#   cmake -DZAR_PDO_POOL_SOURCE=/path/to/pdo_pool.c -P ZarPdoPoolSource.cmake

function(zar_pdo_pool_check_sources sources)
  if(sources STREQUAL "")
    message(FATAL_ERROR
      "ZAR_PDO_POOL_SOURCE is empty: give the path of your pdo_pool.c "
      "(implementing ext/pdo/pdo_pool.h)")
  endif()
  foreach(source IN LISTS sources)
    if(NOT IS_ABSOLUTE "${source}")
      message(FATAL_ERROR
        "ZAR_PDO_POOL_SOURCE: \"${source}\" is not an absolute path; give "
        "the absolute path of your pdo_pool.c (implementing "
        "ext/pdo/pdo_pool.h)")
    endif()
    if(IS_DIRECTORY "${source}")
      message(FATAL_ERROR
        "ZAR_PDO_POOL_SOURCE: \"${source}\" is a directory; give the path "
        "of your pdo_pool.c (implementing ext/pdo/pdo_pool.h)")
    endif()
    if(NOT EXISTS "${source}")
      message(FATAL_ERROR
        "ZAR_PDO_POOL_SOURCE: no file \"${source}\"; give the path of your "
        "pdo_pool.c (implementing ext/pdo/pdo_pool.h)")
    endif()
  endforeach()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  zar_pdo_pool_check_sources("${ZAR_PDO_POOL_SOURCE}")
  message(STATUS "PDO pool: ${ZAR_PDO_POOL_SOURCE}")
endif()

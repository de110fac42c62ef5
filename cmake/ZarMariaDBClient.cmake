# MariaDB Connector/C (Debian's libmariadb-dev), the client library of PDO's
# "mysql" driver (pdo_sim/src/drivers/mysql_*). Optional: this project builds
# the driver and its tests only where it is found.
#
#   include(ZarMariaDBClient)
#   zar_find_mariadb_client()   # MariaDB::Client, ZAR_MARIADB_CLIENT_FOUND
#
# Looked up with pkg-config (libmariadb.pc), else by its header
# (mariadb/mysql.h) and library (libmariadb). The result is one imported
# target, MariaDB::Client, whatever found it, so that an installed
# ZendAsyncRef package (whose pdo_sim links it) finds it again under the same
# name (ZendAsyncRefConfig.cmake includes this file).
function(zar_find_mariadb_client)
  if(TARGET MariaDB::Client)
    set(ZAR_MARIADB_CLIENT_FOUND TRUE PARENT_SCOPE)
    return()
  endif()
  set(include_dirs "")
  set(libraries "")
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(ZAR_LIBMARIADB QUIET libmariadb)
  endif()
  if(ZAR_LIBMARIADB_FOUND)
    set(include_dirs ${ZAR_LIBMARIADB_INCLUDE_DIRS})
    find_library(ZAR_MARIADB_CLIENT_LIBRARY
      NAMES mariadb
      HINTS ${ZAR_LIBMARIADB_LIBRARY_DIRS})
    set(libraries ${ZAR_MARIADB_CLIENT_LIBRARY})
  else()
    find_path(ZAR_MARIADB_CLIENT_INCLUDE_DIR mysql.h PATH_SUFFIXES mariadb)
    find_library(ZAR_MARIADB_CLIENT_LIBRARY NAMES mariadb)
    if(ZAR_MARIADB_CLIENT_INCLUDE_DIR)
      set(include_dirs ${ZAR_MARIADB_CLIENT_INCLUDE_DIR})
    endif()
    set(libraries ${ZAR_MARIADB_CLIENT_LIBRARY})
  endif()
  if(NOT include_dirs OR NOT ZAR_MARIADB_CLIENT_LIBRARY)
    set(ZAR_MARIADB_CLIENT_FOUND FALSE PARENT_SCOPE)
    return()
  endif()
  add_library(MariaDB::Client UNKNOWN IMPORTED GLOBAL)
  set_target_properties(MariaDB::Client PROPERTIES
    IMPORTED_LOCATION "${libraries}"
    INTERFACE_INCLUDE_DIRECTORIES "${include_dirs}")
  set(ZAR_MARIADB_CLIENT_FOUND TRUE PARENT_SCOPE)
endfunction()

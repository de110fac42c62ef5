/*
 * zend-async-ref: mock PHP. The Server API layer (PHP's main/SAPI.h): the
 * module struct through which a SAPI (a web server module, the CLI, an
 * embedding program, a test harness) plugs into the process and request
 * lifecycle, and the SAPI globals SG().
 *
 * Lifecycle, as in PHP:
 *
 *   sapi_startup(&my_sapi)          copies the struct into sapi_module,
 *                                   resets SG(); clears ini_entries.
 *   my_sapi.startup(&my_sapi)       by convention calls
 *                                   php_module_startup(&my_sapi, NULL)
 *                                   (main/php_main.h).
 *   php_request_startup()           sapi_activate(): SG(request_info) kept,
 *                                   sapi_module.activate() if set; then
 *                                   each module's RINIT.
 *   php_request_shutdown(NULL)      each module's RSHUTDOWN, ...,
 *                                   sapi_deactivate():
 *                                   sapi_module.deactivate() if set.
 *   php_module_shutdown()           (or sapi_module.shutdown, usually
 *                                   php_module_shutdown_wrapper)
 *   sapi_shutdown()                 SG() reset; sapi_module cleared.
 *
 * What the mock uses of the struct: name (PHP_SAPI), startup, shutdown,
 * activate, deactivate, ub_write (php_printf output; stdout when unset),
 * flush (sapi_flush), log_message (every error reported through zend_error
 * or php_error, as "PHP Warning:  message", when set), additional_functions
 * (registered by php_module_startup). The other members are kept for
 * layout and never called: the mock has no HTTP headers, POST body,
 * cookies or php.ini.
 *
 * Threading: one SAPI per process, on the thread that started it (non-ZTS).
 * Calls out of order are refused, never crash: php_module_startup() without
 * a struct fails, sapi_shutdown() without sapi_startup() does nothing.
 */
#ifndef SAPI_H
#define SAPI_H

#include <sys/stat.h>
#include <sys/types.h>

#include "php.h"
#include "zend.h"
#include "zend_API.h"
#include "zend_llist.h"
#include "zend_operators.h"
#include "zend_stream.h"

#define SAPI_OPTION_NO_CHDIR 1
#define SAPI_POST_BLOCK_SIZE 0x4000

#if defined(__GNUC__) && __GNUC__ >= 4
#define SAPI_API __attribute__((visibility("default")))
#else
#define SAPI_API
#endif

#undef shutdown

typedef struct {
  char *header;
  size_t header_len;
} sapi_header_struct;

typedef struct {
  zend_llist headers;
  int http_response_code;
  unsigned char send_default_content_type;
  char *mimetype;
  char *http_status_line;
} sapi_headers_struct;

typedef struct _sapi_post_entry sapi_post_entry;
typedef struct _sapi_module_struct sapi_module_struct;

BEGIN_EXTERN_C()
/* The running SAPI: a copy of the struct given to sapi_startup() (and
 * again to php_module_startup()). All members NULL before sapi_startup()
 * and after sapi_shutdown(). */
extern SAPI_API sapi_module_struct sapi_module; /* true global */
END_EXTERN_C()

/* The request as the SAPI describes it. The mock reads none of it; a SAPI
 * may fill it in (argc/argv, ...) between sapi_startup() and
 * php_request_startup(), and it is kept until sapi_shutdown(). */
typedef struct {
  const char *request_method;
  char *query_string;
  char *cookie_data;
  zend_long content_length;

  char *path_translated;
  char *request_uri;

  struct _php_stream *request_body;

  const char *content_type;

  bool headers_only;
  bool no_headers;
  bool headers_read;

  sapi_post_entry *post_entry;

  char *content_type_dup;

  char *auth_user;
  char *auth_password;
  char *auth_digest;

  char *argv0;

  char *current_user;
  int current_user_length;

  int argc;
  char **argv;
  int proto_num;
} sapi_request_info;

typedef struct {
  bool throw_exceptions;
  struct {
    bool set;
    zend_long value;
  } options_cache[5];
} sapi_request_parse_body_context;

typedef enum {
  REQUEST_PARSE_BODY_OPTION_max_file_uploads = 0,
  REQUEST_PARSE_BODY_OPTION_max_input_vars,
  REQUEST_PARSE_BODY_OPTION_max_multipart_body_parts,
  REQUEST_PARSE_BODY_OPTION_post_max_size,
  REQUEST_PARSE_BODY_OPTION_upload_max_filesize,
} request_parse_body_option;

/* The SAPI globals. Zeroed by sapi_startup() and sapi_shutdown();
 * sapi_started is true between them. The mock keeps the hash tables and
 * zvals below empty (UNDEF) and never allocates through them. */
typedef struct _sapi_globals_struct {
  void *server_context;
  sapi_request_info request_info;
  sapi_headers_struct sapi_headers;
  int64_t read_post_bytes;
  unsigned char post_read;
  unsigned char headers_sent;
  zend_stat_t global_stat;
  char *default_mimetype;
  char *default_charset;
  HashTable *rfc1867_uploaded_files;
  zend_long post_max_size;
  int options;
  bool sapi_started;
  double global_request_time;
  HashTable known_post_content_types;
  zval callback_func;
  zend_fcall_info_cache fci_cache;
  sapi_request_parse_body_context request_parse_body_context;
} sapi_globals_struct;

BEGIN_EXTERN_C()
#define SG(v) (sapi_globals.v)
extern SAPI_API sapi_globals_struct sapi_globals;

/* Copies *sf into sapi_module (after setting sf->ini_entries to NULL, as
 * PHP does) and resets SG(). A NULL sf is refused with an E_CORE_WARNING. */
SAPI_API void sapi_startup(sapi_module_struct *sf);
/* Resets SG() and sapi_module. Does nothing before sapi_startup(). */
SAPI_API void sapi_shutdown(void);
/* Request start and end on the SAPI side (called by php_request_startup()
 * and php_request_shutdown()): SG(headers_sent) and SG(read_post_bytes)
 * reset, then sapi_module.activate(); sapi_module.deactivate(). */
SAPI_API void sapi_activate(void);
SAPI_API void sapi_deactivate(void);
/* Resets SG(sapi_headers) and the request's body state. */
SAPI_API void sapi_initialize_empty_request(void);
/* sapi_module.flush(SG(server_context)) if set; SUCCESS either way,
 * FAILURE before sapi_startup(). */
SAPI_API int sapi_flush(void);
END_EXTERN_C()

typedef enum {
  SAPI_HEADER_REPLACE,
  SAPI_HEADER_ADD,
  SAPI_HEADER_DELETE,
  SAPI_HEADER_DELETE_PREFIX,
  SAPI_HEADER_DELETE_ALL,
  SAPI_HEADER_SET_STATUS
} sapi_header_op_enum;

/* The field order and types are PHP's, so a struct written positionally
 * (name, pretty_name, startup, shutdown, ...,
 * STANDARD_SAPI_MODULE_PROPERTIES) compiles unchanged. */
struct _sapi_module_struct {
  char *name;
  char *pretty_name;

  int (*startup)(struct _sapi_module_struct *sapi_module);
  int (*shutdown)(struct _sapi_module_struct *sapi_module);

  int (*activate)(void);
  int (*deactivate)(void);

  size_t (*ub_write)(const char *str, size_t str_length);
  void (*flush)(void *server_context);
  zend_stat_t *(*get_stat)(void);
  char *(*getenv)(const char *name, size_t name_len);

  void (*sapi_error)(int type, const char *error_msg, ...)
      ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);

  int (*header_handler)(sapi_header_struct *sapi_header, sapi_header_op_enum op,
                        sapi_headers_struct *sapi_headers);
  int (*send_headers)(sapi_headers_struct *sapi_headers);
  void (*send_header)(sapi_header_struct *sapi_header, void *server_context);

  size_t (*read_post)(char *buffer, size_t count_bytes);
  char *(*read_cookies)(void);

  void (*register_server_variables)(zval *track_vars_array);
  void (*log_message)(const char *message, int syslog_type_int);
  zend_result (*get_request_time)(double *request_time);
  void (*terminate_process)(void);

  char *php_ini_path_override;

  void (*default_post_reader)(void);
  void (*treat_data)(int arg, char *str, zval *destArray);
  char *executable_location;

  int php_ini_ignore;
  int php_ini_ignore_cwd;

  int (*get_fd)(int *fd);

  int (*force_http_10)(void);

  int (*get_target_uid)(uid_t *);
  int (*get_target_gid)(gid_t *);

  unsigned int (*input_filter)(int arg, const char *var, char **val,
                               size_t val_len, size_t *new_val_len);

  void (*ini_defaults)(HashTable *configuration_hash);
  int phpinfo_as_text;

  const char *ini_entries;
  const zend_function_entry *additional_functions;
  unsigned int (*input_filter_init)(void);

  int (*pre_request_init)(void);

  void (*thread_init)(void);
};

struct _sapi_post_entry {
  char *content_type;
  uint32_t content_type_len;
  void (*post_reader)(void);
  void (*post_handler)(char *content_type_dup, void *arg);
};

/* header_handler() constants */
#define SAPI_HEADER_ADD (1 << 0)

#define SAPI_HEADER_SENT_SUCCESSFULLY 1
#define SAPI_HEADER_DO_SEND 2
#define SAPI_HEADER_SEND_FAILED 3

#define SAPI_DEFAULT_MIMETYPE "text/html"

#define SAPI_POST_READER_FUNC(post_reader) void post_reader(void)
#define SAPI_POST_HANDLER_FUNC(post_handler) \
  void post_handler(char *content_type_dup, void *arg)
#define SAPI_TREAT_DATA_FUNC(treat_data) \
  void treat_data(int arg, char *str, zval *destArray)
#define SAPI_INPUT_FILTER_FUNC(input_filter)                      \
  unsigned int input_filter(int arg, const char *var, char **val, \
                            size_t val_len, size_t *new_val_len)

/* The members after terminate_process, all empty. */
#define STANDARD_SAPI_MODULE_PROPERTIES   \
  NULL,     /* php_ini_path_override   */ \
      NULL, /* default_post_reader     */ \
      NULL, /* treat_data              */ \
      NULL, /* executable_location     */ \
      0,    /* php_ini_ignore          */ \
      0,    /* php_ini_ignore_cwd      */ \
      NULL, /* get_fd                  */ \
      NULL, /* force_http_10           */ \
      NULL, /* get_target_uid          */ \
      NULL, /* get_target_gid          */ \
      NULL, /* input_filter            */ \
      NULL, /* ini_defaults            */ \
      0,    /* phpinfo_as_text;        */ \
      NULL, /* ini_entries;            */ \
      NULL, /* additional_functions    */ \
      NULL, /* input_filter_init       */ \
      NULL, /* pre_request_init        */ \
      NULL  /* thread_init             */

#endif /* SAPI_H */

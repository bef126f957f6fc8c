// Written by scripts/generate-library-loading: every function of dbus/dbus.h
// that libdbus-1.so.3 exports, loading the library at its first call.
// Do not edit; run the script again.

#include "Functions.h"

// The definitions are the program's own, not for libraries to bind to:
// hidden, whatever the header declares (libdbus's marks each function
// visible).
#pragma GCC visibility push(hidden)
#define __visibility__(visibility) __visibility__("hidden")
#include <dbus/dbus.h>
#undef __visibility__

#pragma clang diagnostic ignored "-Wdeprecated-declarations"

__typeof__(void) dbus_address_entries_free(__typeof__(DBusAddressEntry **) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_address_entries_free)(a0); }
__typeof__(const char *) dbus_address_entry_get_method(__typeof__(DBusAddressEntry *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_address_entry_get_method)(a0); }
__typeof__(const char *) dbus_address_entry_get_value(__typeof__(DBusAddressEntry *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_address_entry_get_value)(a0, a1); }
__typeof__(char *) dbus_address_escape_value(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_address_escape_value)(a0); }
__typeof__(char *) dbus_address_unescape_value(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_address_unescape_value)(a0, a1); }
__typeof__(void) dbus_bus_add_match(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(DBusError *) a2) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_add_match)(a0, a1, a2); }
__typeof__(DBusConnection *) dbus_bus_get(__typeof__(DBusBusType) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_get)(a0, a1); }
__typeof__(char *) dbus_bus_get_id(__typeof__(DBusConnection *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_get_id)(a0, a1); }
__typeof__(DBusConnection *) dbus_bus_get_private(__typeof__(DBusBusType) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_get_private)(a0, a1); }
__typeof__(const char *) dbus_bus_get_unique_name(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_get_unique_name)(a0); }
__typeof__(unsigned long) dbus_bus_get_unix_user(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(DBusError *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_get_unix_user)(a0, a1, a2); }
__typeof__(dbus_bool_t) dbus_bus_name_has_owner(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(DBusError *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_name_has_owner)(a0, a1, a2); }
__typeof__(dbus_bool_t) dbus_bus_register(__typeof__(DBusConnection *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_register)(a0, a1); }
__typeof__(int) dbus_bus_release_name(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(DBusError *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_release_name)(a0, a1, a2); }
__typeof__(void) dbus_bus_remove_match(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(DBusError *) a2) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_remove_match)(a0, a1, a2); }
__typeof__(int) dbus_bus_request_name(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(unsigned int) a2, __typeof__(DBusError *) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_request_name)(a0, a1, a2, a3); }
__typeof__(dbus_bool_t) dbus_bus_set_unique_name(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_set_unique_name)(a0, a1); }
__typeof__(dbus_bool_t) dbus_bus_start_service_by_name(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(dbus_uint32_t) a2, __typeof__(dbus_uint32_t *) a3, __typeof__(DBusError *) a4) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_bus_start_service_by_name)(a0, a1, a2, a3, a4); }
__typeof__(dbus_bool_t) dbus_connection_add_filter(__typeof__(DBusConnection *) a0, __typeof__(DBusHandleMessageFunction) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_add_filter)(a0, a1, a2, a3); }
__typeof__(dbus_bool_t) dbus_connection_allocate_data_slot(__typeof__(dbus_int32_t *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_allocate_data_slot)(a0); }
__typeof__(DBusMessage *) dbus_connection_borrow_message(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_borrow_message)(a0); }
__typeof__(dbus_bool_t) dbus_connection_can_send_type(__typeof__(DBusConnection *) a0, __typeof__(int) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_can_send_type)(a0, a1); }
__typeof__(void) dbus_connection_close(__typeof__(DBusConnection *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_close)(a0); }
__typeof__(DBusDispatchStatus) dbus_connection_dispatch(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_dispatch)(a0); }
__typeof__(void) dbus_connection_flush(__typeof__(DBusConnection *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_flush)(a0); }
__typeof__(void) dbus_connection_free_data_slot(__typeof__(dbus_int32_t *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_free_data_slot)(a0); }
__typeof__(void) dbus_connection_free_preallocated_send(__typeof__(DBusConnection *) a0, __typeof__(DBusPreallocatedSend *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_free_preallocated_send)(a0, a1); }
__typeof__(dbus_bool_t) dbus_connection_get_adt_audit_session_data(__typeof__(DBusConnection *) a0, __typeof__(void **) a1, __typeof__(dbus_int32_t *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_adt_audit_session_data)(a0, a1, a2); }
__typeof__(void *) dbus_connection_get_data(__typeof__(DBusConnection *) a0, __typeof__(dbus_int32_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_data)(a0, a1); }
__typeof__(DBusDispatchStatus) dbus_connection_get_dispatch_status(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_dispatch_status)(a0); }
__typeof__(dbus_bool_t) dbus_connection_get_is_anonymous(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_is_anonymous)(a0); }
__typeof__(dbus_bool_t) dbus_connection_get_is_authenticated(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_is_authenticated)(a0); }
__typeof__(dbus_bool_t) dbus_connection_get_is_connected(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_is_connected)(a0); }
__typeof__(long) dbus_connection_get_max_message_size(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_max_message_size)(a0); }
__typeof__(long) dbus_connection_get_max_message_unix_fds(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_max_message_unix_fds)(a0); }
__typeof__(long) dbus_connection_get_max_received_size(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_max_received_size)(a0); }
__typeof__(long) dbus_connection_get_max_received_unix_fds(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_max_received_unix_fds)(a0); }
__typeof__(dbus_bool_t) dbus_connection_get_object_path_data(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(void **) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_object_path_data)(a0, a1, a2); }
__typeof__(long) dbus_connection_get_outgoing_size(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_outgoing_size)(a0); }
__typeof__(long) dbus_connection_get_outgoing_unix_fds(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_outgoing_unix_fds)(a0); }
__typeof__(char *) dbus_connection_get_server_id(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_server_id)(a0); }
__typeof__(dbus_bool_t) dbus_connection_get_socket(__typeof__(DBusConnection *) a0, __typeof__(int *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_socket)(a0, a1); }
__typeof__(dbus_bool_t) dbus_connection_get_unix_fd(__typeof__(DBusConnection *) a0, __typeof__(int *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_unix_fd)(a0, a1); }
__typeof__(dbus_bool_t) dbus_connection_get_unix_process_id(__typeof__(DBusConnection *) a0, __typeof__(unsigned long *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_unix_process_id)(a0, a1); }
__typeof__(dbus_bool_t) dbus_connection_get_unix_user(__typeof__(DBusConnection *) a0, __typeof__(unsigned long *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_unix_user)(a0, a1); }
__typeof__(dbus_bool_t) dbus_connection_get_windows_user(__typeof__(DBusConnection *) a0, __typeof__(char **) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_get_windows_user)(a0, a1); }
__typeof__(dbus_bool_t) dbus_connection_has_messages_to_send(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_has_messages_to_send)(a0); }
__typeof__(dbus_bool_t) dbus_connection_list_registered(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(char ***) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_list_registered)(a0, a1, a2); }
__typeof__(DBusConnection *) dbus_connection_open(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_open)(a0, a1); }
__typeof__(DBusConnection *) dbus_connection_open_private(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_open_private)(a0, a1); }
__typeof__(DBusMessage *) dbus_connection_pop_message(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_pop_message)(a0); }
__typeof__(DBusPreallocatedSend *) dbus_connection_preallocate_send(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_preallocate_send)(a0); }
__typeof__(dbus_bool_t) dbus_connection_read_write(__typeof__(DBusConnection *) a0, __typeof__(int) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_read_write)(a0, a1); }
__typeof__(dbus_bool_t) dbus_connection_read_write_dispatch(__typeof__(DBusConnection *) a0, __typeof__(int) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_read_write_dispatch)(a0, a1); }
__typeof__(DBusConnection *) dbus_connection_ref(__typeof__(DBusConnection *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_ref)(a0); }
__typeof__(dbus_bool_t) dbus_connection_register_fallback(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(const DBusObjectPathVTable *) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_register_fallback)(a0, a1, a2, a3); }
__typeof__(dbus_bool_t) dbus_connection_register_object_path(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(const DBusObjectPathVTable *) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_register_object_path)(a0, a1, a2, a3); }
__typeof__(void) dbus_connection_remove_filter(__typeof__(DBusConnection *) a0, __typeof__(DBusHandleMessageFunction) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_remove_filter)(a0, a1, a2); }
__typeof__(void) dbus_connection_return_message(__typeof__(DBusConnection *) a0, __typeof__(DBusMessage *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_return_message)(a0, a1); }
__typeof__(dbus_bool_t) dbus_connection_send(__typeof__(DBusConnection *) a0, __typeof__(DBusMessage *) a1, __typeof__(dbus_uint32_t *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_send)(a0, a1, a2); }
__typeof__(void) dbus_connection_send_preallocated(__typeof__(DBusConnection *) a0, __typeof__(DBusPreallocatedSend *) a1, __typeof__(DBusMessage *) a2, __typeof__(dbus_uint32_t *) a3) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_send_preallocated)(a0, a1, a2, a3); }
__typeof__(dbus_bool_t) dbus_connection_send_with_reply(__typeof__(DBusConnection *) a0, __typeof__(DBusMessage *) a1, __typeof__(DBusPendingCall **) a2, __typeof__(int) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_send_with_reply)(a0, a1, a2, a3); }
__typeof__(DBusMessage *) dbus_connection_send_with_reply_and_block(__typeof__(DBusConnection *) a0, __typeof__(DBusMessage *) a1, __typeof__(int) a2, __typeof__(DBusError *) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_send_with_reply_and_block)(a0, a1, a2, a3); }
__typeof__(void) dbus_connection_set_allow_anonymous(__typeof__(DBusConnection *) a0, __typeof__(dbus_bool_t) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_allow_anonymous)(a0, a1); }
__typeof__(void) dbus_connection_set_change_sigpipe(__typeof__(dbus_bool_t) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_change_sigpipe)(a0); }
__typeof__(dbus_bool_t) dbus_connection_set_data(__typeof__(DBusConnection *) a0, __typeof__(dbus_int32_t) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_data)(a0, a1, a2, a3); }
__typeof__(void) dbus_connection_set_dispatch_status_function(__typeof__(DBusConnection *) a0, __typeof__(DBusDispatchStatusFunction) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_dispatch_status_function)(a0, a1, a2, a3); }
__typeof__(void) dbus_connection_set_exit_on_disconnect(__typeof__(DBusConnection *) a0, __typeof__(dbus_bool_t) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_exit_on_disconnect)(a0, a1); }
__typeof__(void) dbus_connection_set_max_message_size(__typeof__(DBusConnection *) a0, __typeof__(long) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_max_message_size)(a0, a1); }
__typeof__(void) dbus_connection_set_max_message_unix_fds(__typeof__(DBusConnection *) a0, __typeof__(long) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_max_message_unix_fds)(a0, a1); }
__typeof__(void) dbus_connection_set_max_received_size(__typeof__(DBusConnection *) a0, __typeof__(long) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_max_received_size)(a0, a1); }
__typeof__(void) dbus_connection_set_max_received_unix_fds(__typeof__(DBusConnection *) a0, __typeof__(long) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_max_received_unix_fds)(a0, a1); }
__typeof__(void) dbus_connection_set_route_peer_messages(__typeof__(DBusConnection *) a0, __typeof__(dbus_bool_t) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_route_peer_messages)(a0, a1); }
__typeof__(dbus_bool_t) dbus_connection_set_timeout_functions(__typeof__(DBusConnection *) a0, __typeof__(DBusAddTimeoutFunction) a1, __typeof__(DBusRemoveTimeoutFunction) a2, __typeof__(DBusTimeoutToggledFunction) a3, __typeof__(void *) a4, __typeof__(DBusFreeFunction) a5) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_timeout_functions)(a0, a1, a2, a3, a4, a5); }
__typeof__(void) dbus_connection_set_unix_user_function(__typeof__(DBusConnection *) a0, __typeof__(DBusAllowUnixUserFunction) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_unix_user_function)(a0, a1, a2, a3); }
__typeof__(void) dbus_connection_set_wakeup_main_function(__typeof__(DBusConnection *) a0, __typeof__(DBusWakeupMainFunction) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_wakeup_main_function)(a0, a1, a2, a3); }
__typeof__(dbus_bool_t) dbus_connection_set_watch_functions(__typeof__(DBusConnection *) a0, __typeof__(DBusAddWatchFunction) a1, __typeof__(DBusRemoveWatchFunction) a2, __typeof__(DBusWatchToggledFunction) a3, __typeof__(void *) a4, __typeof__(DBusFreeFunction) a5) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_watch_functions)(a0, a1, a2, a3, a4, a5); }
__typeof__(void) dbus_connection_set_windows_user_function(__typeof__(DBusConnection *) a0, __typeof__(DBusAllowWindowsUserFunction) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_set_windows_user_function)(a0, a1, a2, a3); }
__typeof__(void) dbus_connection_steal_borrowed_message(__typeof__(DBusConnection *) a0, __typeof__(DBusMessage *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_steal_borrowed_message)(a0, a1); }
__typeof__(dbus_bool_t) dbus_connection_try_register_fallback(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(const DBusObjectPathVTable *) a2, __typeof__(void *) a3, __typeof__(DBusError *) a4) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_try_register_fallback)(a0, a1, a2, a3, a4); }
__typeof__(dbus_bool_t) dbus_connection_try_register_object_path(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1, __typeof__(const DBusObjectPathVTable *) a2, __typeof__(void *) a3, __typeof__(DBusError *) a4) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_try_register_object_path)(a0, a1, a2, a3, a4); }
__typeof__(void) dbus_connection_unref(__typeof__(DBusConnection *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_unref)(a0); }
__typeof__(dbus_bool_t) dbus_connection_unregister_object_path(__typeof__(DBusConnection *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_connection_unregister_object_path)(a0, a1); }
__typeof__(void) dbus_error_free(__typeof__(DBusError *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_error_free)(a0); }
__typeof__(dbus_bool_t) dbus_error_has_name(__typeof__(const DBusError *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_error_has_name)(a0, a1); }
__typeof__(void) dbus_error_init(__typeof__(DBusError *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_error_init)(a0); }
__typeof__(dbus_bool_t) dbus_error_is_set(__typeof__(const DBusError *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_error_is_set)(a0); }
__typeof__(void) dbus_free(__typeof__(void *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_free)(a0); }
__typeof__(void) dbus_free_string_array(__typeof__(char **) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_free_string_array)(a0); }
__typeof__(char *) dbus_get_local_machine_id(void) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_get_local_machine_id)(); }
__typeof__(void) dbus_get_version(__typeof__(int *) a0, __typeof__(int *) a1, __typeof__(int *) a2) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_get_version)(a0, a1, a2); }
__typeof__(void *) dbus_malloc(__typeof__(size_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_malloc)(a0); }
__typeof__(void *) dbus_malloc0(__typeof__(size_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_malloc0)(a0); }
__typeof__(dbus_bool_t) dbus_message_allocate_data_slot(__typeof__(dbus_int32_t *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_allocate_data_slot)(a0); }
__typeof__(dbus_bool_t) dbus_message_contains_unix_fds(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_contains_unix_fds)(a0); }
__typeof__(DBusMessage *) dbus_message_copy(__typeof__(const DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_copy)(a0); }
__typeof__(DBusMessage *) dbus_message_demarshal(__typeof__(const char *) a0, __typeof__(int) a1, __typeof__(DBusError *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_demarshal)(a0, a1, a2); }
__typeof__(int) dbus_message_demarshal_bytes_needed(__typeof__(const char *) a0, __typeof__(int) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_demarshal_bytes_needed)(a0, a1); }
__typeof__(void) dbus_message_free_data_slot(__typeof__(dbus_int32_t *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_free_data_slot)(a0); }
__typeof__(dbus_bool_t) dbus_message_get_allow_interactive_authorization(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_allow_interactive_authorization)(a0); }
__typeof__(dbus_bool_t) dbus_message_get_auto_start(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_auto_start)(a0); }
__typeof__(const char *) dbus_message_get_container_instance(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_container_instance)(a0); }
__typeof__(void *) dbus_message_get_data(__typeof__(DBusMessage *) a0, __typeof__(dbus_int32_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_data)(a0, a1); }
__typeof__(const char *) dbus_message_get_destination(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_destination)(a0); }
__typeof__(const char *) dbus_message_get_error_name(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_error_name)(a0); }
__typeof__(const char *) dbus_message_get_interface(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_interface)(a0); }
__typeof__(const char *) dbus_message_get_member(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_member)(a0); }
__typeof__(dbus_bool_t) dbus_message_get_no_reply(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_no_reply)(a0); }
__typeof__(const char *) dbus_message_get_path(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_path)(a0); }
__typeof__(dbus_bool_t) dbus_message_get_path_decomposed(__typeof__(DBusMessage *) a0, __typeof__(char ***) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_path_decomposed)(a0, a1); }
__typeof__(dbus_uint32_t) dbus_message_get_reply_serial(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_reply_serial)(a0); }
__typeof__(const char *) dbus_message_get_sender(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_sender)(a0); }
__typeof__(dbus_uint32_t) dbus_message_get_serial(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_serial)(a0); }
__typeof__(const char *) dbus_message_get_signature(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_signature)(a0); }
__typeof__(int) dbus_message_get_type(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_get_type)(a0); }
__typeof__(dbus_bool_t) dbus_message_has_destination(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_has_destination)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_has_interface(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_has_interface)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_has_member(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_has_member)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_has_path(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_has_path)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_has_sender(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_has_sender)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_has_signature(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_has_signature)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_is_error(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_is_error)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_is_method_call(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_is_method_call)(a0, a1, a2); }
__typeof__(dbus_bool_t) dbus_message_is_signal(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_is_signal)(a0, a1, a2); }
__typeof__(void) dbus_message_iter_abandon_container(__typeof__(DBusMessageIter *) a0, __typeof__(DBusMessageIter *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_abandon_container)(a0, a1); }
__typeof__(void) dbus_message_iter_abandon_container_if_open(__typeof__(DBusMessageIter *) a0, __typeof__(DBusMessageIter *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_abandon_container_if_open)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_iter_append_basic(__typeof__(DBusMessageIter *) a0, __typeof__(int) a1, __typeof__(const void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_append_basic)(a0, a1, a2); }
__typeof__(dbus_bool_t) dbus_message_iter_append_fixed_array(__typeof__(DBusMessageIter *) a0, __typeof__(int) a1, __typeof__(const void *) a2, __typeof__(int) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_append_fixed_array)(a0, a1, a2, a3); }
__typeof__(dbus_bool_t) dbus_message_iter_close_container(__typeof__(DBusMessageIter *) a0, __typeof__(DBusMessageIter *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_close_container)(a0, a1); }
__typeof__(int) dbus_message_iter_get_arg_type(__typeof__(DBusMessageIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_get_arg_type)(a0); }
__typeof__(int) dbus_message_iter_get_array_len(__typeof__(DBusMessageIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_get_array_len)(a0); }
__typeof__(void) dbus_message_iter_get_basic(__typeof__(DBusMessageIter *) a0, __typeof__(void *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_get_basic)(a0, a1); }
__typeof__(int) dbus_message_iter_get_element_count(__typeof__(DBusMessageIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_get_element_count)(a0); }
__typeof__(int) dbus_message_iter_get_element_type(__typeof__(DBusMessageIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_get_element_type)(a0); }
__typeof__(void) dbus_message_iter_get_fixed_array(__typeof__(DBusMessageIter *) a0, __typeof__(void *) a1, __typeof__(int *) a2) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_get_fixed_array)(a0, a1, a2); }
__typeof__(char *) dbus_message_iter_get_signature(__typeof__(DBusMessageIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_get_signature)(a0); }
__typeof__(dbus_bool_t) dbus_message_iter_has_next(__typeof__(DBusMessageIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_has_next)(a0); }
__typeof__(dbus_bool_t) dbus_message_iter_init(__typeof__(DBusMessage *) a0, __typeof__(DBusMessageIter *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_init)(a0, a1); }
__typeof__(void) dbus_message_iter_init_append(__typeof__(DBusMessage *) a0, __typeof__(DBusMessageIter *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_init_append)(a0, a1); }
__typeof__(void) dbus_message_iter_init_closed(__typeof__(DBusMessageIter *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_init_closed)(a0); }
__typeof__(dbus_bool_t) dbus_message_iter_next(__typeof__(DBusMessageIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_next)(a0); }
__typeof__(dbus_bool_t) dbus_message_iter_open_container(__typeof__(DBusMessageIter *) a0, __typeof__(int) a1, __typeof__(const char *) a2, __typeof__(DBusMessageIter *) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_open_container)(a0, a1, a2, a3); }
__typeof__(void) dbus_message_iter_recurse(__typeof__(DBusMessageIter *) a0, __typeof__(DBusMessageIter *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_iter_recurse)(a0, a1); }
__typeof__(void) dbus_message_lock(__typeof__(DBusMessage *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_lock)(a0); }
__typeof__(dbus_bool_t) dbus_message_marshal(__typeof__(DBusMessage *) a0, __typeof__(char **) a1, __typeof__(int *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_marshal)(a0, a1, a2); }
__typeof__(DBusMessage *) dbus_message_new(__typeof__(int) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_new)(a0); }
__typeof__(DBusMessage *) dbus_message_new_error(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_new_error)(a0, a1, a2); }
__typeof__(DBusMessage *) dbus_message_new_method_call(__typeof__(const char *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(const char *) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_new_method_call)(a0, a1, a2, a3); }
__typeof__(DBusMessage *) dbus_message_new_method_return(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_new_method_return)(a0); }
__typeof__(DBusMessage *) dbus_message_new_signal(__typeof__(const char *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_new_signal)(a0, a1, a2); }
__typeof__(DBusMessage *) dbus_message_ref(__typeof__(DBusMessage *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_ref)(a0); }
__typeof__(void) dbus_message_set_allow_interactive_authorization(__typeof__(DBusMessage *) a0, __typeof__(dbus_bool_t) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_allow_interactive_authorization)(a0, a1); }
__typeof__(void) dbus_message_set_auto_start(__typeof__(DBusMessage *) a0, __typeof__(dbus_bool_t) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_auto_start)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_set_container_instance(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_container_instance)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_set_data(__typeof__(DBusMessage *) a0, __typeof__(dbus_int32_t) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_data)(a0, a1, a2, a3); }
__typeof__(dbus_bool_t) dbus_message_set_destination(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_destination)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_set_error_name(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_error_name)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_set_interface(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_interface)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_set_member(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_member)(a0, a1); }
__typeof__(void) dbus_message_set_no_reply(__typeof__(DBusMessage *) a0, __typeof__(dbus_bool_t) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_no_reply)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_set_path(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_path)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_set_reply_serial(__typeof__(DBusMessage *) a0, __typeof__(dbus_uint32_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_reply_serial)(a0, a1); }
__typeof__(dbus_bool_t) dbus_message_set_sender(__typeof__(DBusMessage *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_sender)(a0, a1); }
__typeof__(void) dbus_message_set_serial(__typeof__(DBusMessage *) a0, __typeof__(dbus_uint32_t) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_set_serial)(a0, a1); }
__typeof__(int) dbus_message_type_from_string(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_type_from_string)(a0); }
__typeof__(const char *) dbus_message_type_to_string(__typeof__(int) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_type_to_string)(a0); }
__typeof__(void) dbus_message_unref(__typeof__(DBusMessage *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_message_unref)(a0); }
__typeof__(void) dbus_move_error(__typeof__(DBusError *) a0, __typeof__(DBusError *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_move_error)(a0, a1); }
__typeof__(dbus_bool_t) dbus_parse_address(__typeof__(const char *) a0, __typeof__(DBusAddressEntry ***) a1, __typeof__(int *) a2, __typeof__(DBusError *) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_parse_address)(a0, a1, a2, a3); }
__typeof__(dbus_bool_t) dbus_pending_call_allocate_data_slot(__typeof__(dbus_int32_t *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_allocate_data_slot)(a0); }
__typeof__(void) dbus_pending_call_block(__typeof__(DBusPendingCall *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_block)(a0); }
__typeof__(void) dbus_pending_call_cancel(__typeof__(DBusPendingCall *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_cancel)(a0); }
__typeof__(void) dbus_pending_call_free_data_slot(__typeof__(dbus_int32_t *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_free_data_slot)(a0); }
__typeof__(dbus_bool_t) dbus_pending_call_get_completed(__typeof__(DBusPendingCall *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_get_completed)(a0); }
__typeof__(void *) dbus_pending_call_get_data(__typeof__(DBusPendingCall *) a0, __typeof__(dbus_int32_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_get_data)(a0, a1); }
__typeof__(DBusPendingCall *) dbus_pending_call_ref(__typeof__(DBusPendingCall *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_ref)(a0); }
__typeof__(dbus_bool_t) dbus_pending_call_set_data(__typeof__(DBusPendingCall *) a0, __typeof__(dbus_int32_t) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_set_data)(a0, a1, a2, a3); }
__typeof__(dbus_bool_t) dbus_pending_call_set_notify(__typeof__(DBusPendingCall *) a0, __typeof__(DBusPendingCallNotifyFunction) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_set_notify)(a0, a1, a2, a3); }
__typeof__(DBusMessage *) dbus_pending_call_steal_reply(__typeof__(DBusPendingCall *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_steal_reply)(a0); }
__typeof__(void) dbus_pending_call_unref(__typeof__(DBusPendingCall *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_pending_call_unref)(a0); }
__typeof__(void *) dbus_realloc(__typeof__(void *) a0, __typeof__(size_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_realloc)(a0, a1); }
__typeof__(dbus_bool_t) dbus_server_allocate_data_slot(__typeof__(dbus_int32_t *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_allocate_data_slot)(a0); }
__typeof__(void) dbus_server_disconnect(__typeof__(DBusServer *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_disconnect)(a0); }
__typeof__(void) dbus_server_free_data_slot(__typeof__(dbus_int32_t *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_free_data_slot)(a0); }
__typeof__(char *) dbus_server_get_address(__typeof__(DBusServer *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_get_address)(a0); }
__typeof__(void *) dbus_server_get_data(__typeof__(DBusServer *) a0, __typeof__(int) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_get_data)(a0, a1); }
__typeof__(char *) dbus_server_get_id(__typeof__(DBusServer *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_get_id)(a0); }
__typeof__(dbus_bool_t) dbus_server_get_is_connected(__typeof__(DBusServer *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_get_is_connected)(a0); }
__typeof__(DBusServer *) dbus_server_listen(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_listen)(a0, a1); }
__typeof__(DBusServer *) dbus_server_ref(__typeof__(DBusServer *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_ref)(a0); }
__typeof__(dbus_bool_t) dbus_server_set_auth_mechanisms(__typeof__(DBusServer *) a0, __typeof__(const char **) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_set_auth_mechanisms)(a0, a1); }
__typeof__(dbus_bool_t) dbus_server_set_data(__typeof__(DBusServer *) a0, __typeof__(int) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_set_data)(a0, a1, a2, a3); }
__typeof__(void) dbus_server_set_new_connection_function(__typeof__(DBusServer *) a0, __typeof__(DBusNewConnectionFunction) a1, __typeof__(void *) a2, __typeof__(DBusFreeFunction) a3) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_set_new_connection_function)(a0, a1, a2, a3); }
__typeof__(dbus_bool_t) dbus_server_set_timeout_functions(__typeof__(DBusServer *) a0, __typeof__(DBusAddTimeoutFunction) a1, __typeof__(DBusRemoveTimeoutFunction) a2, __typeof__(DBusTimeoutToggledFunction) a3, __typeof__(void *) a4, __typeof__(DBusFreeFunction) a5) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_set_timeout_functions)(a0, a1, a2, a3, a4, a5); }
__typeof__(dbus_bool_t) dbus_server_set_watch_functions(__typeof__(DBusServer *) a0, __typeof__(DBusAddWatchFunction) a1, __typeof__(DBusRemoveWatchFunction) a2, __typeof__(DBusWatchToggledFunction) a3, __typeof__(void *) a4, __typeof__(DBusFreeFunction) a5) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_set_watch_functions)(a0, a1, a2, a3, a4, a5); }
__typeof__(void) dbus_server_unref(__typeof__(DBusServer *) a0) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_server_unref)(a0); }
__typeof__(void) dbus_set_error_const(__typeof__(DBusError *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_set_error_const)(a0, a1, a2); }
__typeof__(dbus_bool_t) dbus_set_error_from_message(__typeof__(DBusError *) a0, __typeof__(DBusMessage *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_set_error_from_message)(a0, a1); }
__typeof__(dbus_bool_t) dbus_setenv(__typeof__(const char *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_setenv)(a0, a1); }
__typeof__(void) dbus_shutdown(void) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_shutdown)(); }
__typeof__(int) dbus_signature_iter_get_current_type(__typeof__(const DBusSignatureIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_signature_iter_get_current_type)(a0); }
__typeof__(int) dbus_signature_iter_get_element_type(__typeof__(const DBusSignatureIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_signature_iter_get_element_type)(a0); }
__typeof__(char *) dbus_signature_iter_get_signature(__typeof__(const DBusSignatureIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_signature_iter_get_signature)(a0); }
__typeof__(void) dbus_signature_iter_init(__typeof__(DBusSignatureIter *) a0, __typeof__(const char *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_signature_iter_init)(a0, a1); }
__typeof__(dbus_bool_t) dbus_signature_iter_next(__typeof__(DBusSignatureIter *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_signature_iter_next)(a0); }
__typeof__(void) dbus_signature_iter_recurse(__typeof__(const DBusSignatureIter *) a0, __typeof__(DBusSignatureIter *) a1) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_signature_iter_recurse)(a0, a1); }
__typeof__(dbus_bool_t) dbus_signature_validate(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_signature_validate)(a0, a1); }
__typeof__(dbus_bool_t) dbus_signature_validate_single(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_signature_validate_single)(a0, a1); }
__typeof__(dbus_bool_t) dbus_threads_init(__typeof__(const DBusThreadFunctions *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_threads_init)(a0); }
__typeof__(dbus_bool_t) dbus_threads_init_default(void) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_threads_init_default)(); }
__typeof__(void *) dbus_timeout_get_data(__typeof__(DBusTimeout *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_timeout_get_data)(a0); }
__typeof__(dbus_bool_t) dbus_timeout_get_enabled(__typeof__(DBusTimeout *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_timeout_get_enabled)(a0); }
__typeof__(int) dbus_timeout_get_interval(__typeof__(DBusTimeout *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_timeout_get_interval)(a0); }
__typeof__(dbus_bool_t) dbus_timeout_handle(__typeof__(DBusTimeout *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_timeout_handle)(a0); }
__typeof__(void) dbus_timeout_set_data(__typeof__(DBusTimeout *) a0, __typeof__(void *) a1, __typeof__(DBusFreeFunction) a2) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_timeout_set_data)(a0, a1, a2); }
__typeof__(char *) dbus_try_get_local_machine_id(__typeof__(DBusError *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_try_get_local_machine_id)(a0); }
__typeof__(dbus_bool_t) dbus_type_is_basic(__typeof__(int) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_type_is_basic)(a0); }
__typeof__(dbus_bool_t) dbus_type_is_container(__typeof__(int) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_type_is_container)(a0); }
__typeof__(dbus_bool_t) dbus_type_is_fixed(__typeof__(int) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_type_is_fixed)(a0); }
__typeof__(dbus_bool_t) dbus_type_is_valid(__typeof__(int) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_type_is_valid)(a0); }
__typeof__(dbus_bool_t) dbus_validate_bus_name(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_validate_bus_name)(a0, a1); }
__typeof__(dbus_bool_t) dbus_validate_error_name(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_validate_error_name)(a0, a1); }
__typeof__(dbus_bool_t) dbus_validate_interface(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_validate_interface)(a0, a1); }
__typeof__(dbus_bool_t) dbus_validate_member(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_validate_member)(a0, a1); }
__typeof__(dbus_bool_t) dbus_validate_path(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_validate_path)(a0, a1); }
__typeof__(dbus_bool_t) dbus_validate_utf8(__typeof__(const char *) a0, __typeof__(DBusError *) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_validate_utf8)(a0, a1); }
__typeof__(void *) dbus_watch_get_data(__typeof__(DBusWatch *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_watch_get_data)(a0); }
__typeof__(dbus_bool_t) dbus_watch_get_enabled(__typeof__(DBusWatch *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_watch_get_enabled)(a0); }
__typeof__(int) dbus_watch_get_fd(__typeof__(DBusWatch *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_watch_get_fd)(a0); }
__typeof__(unsigned int) dbus_watch_get_flags(__typeof__(DBusWatch *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_watch_get_flags)(a0); }
__typeof__(int) dbus_watch_get_socket(__typeof__(DBusWatch *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_watch_get_socket)(a0); }
__typeof__(int) dbus_watch_get_unix_fd(__typeof__(DBusWatch *) a0) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_watch_get_unix_fd)(a0); }
__typeof__(dbus_bool_t) dbus_watch_handle(__typeof__(DBusWatch *) a0, __typeof__(unsigned int) a1) { return LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_watch_handle)(a0, a1); }
__typeof__(void) dbus_watch_set_data(__typeof__(DBusWatch *) a0, __typeof__(void *) a1, __typeof__(DBusFreeFunction) a2) { LIBRARY_FUNCTION(LibraryLoadingDBus, dbus_watch_set_data)(a0, a1, a2); }

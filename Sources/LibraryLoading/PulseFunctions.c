// Written by scripts/generate-library-loading: every function of pulse/pulseaudio.h
// that libpulse.so.0 exports, loading the library at its first call.
// Do not edit; run the script again.

#include "Functions.h"

// The definitions are the program's own, not for libraries to bind to:
// hidden, whatever the header declares (libdbus's marks each function
// visible).
#pragma GCC visibility push(hidden)
#define __visibility__(visibility) __visibility__("hidden")
#include <pulse/pulseaudio.h>
#undef __visibility__

#pragma clang diagnostic ignored "-Wdeprecated-declarations"

__typeof__(char *) pa_ascii_filter(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_ascii_filter)(a0); }
__typeof__(char *) pa_ascii_valid(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_ascii_valid)(a0); }
__typeof__(size_t) pa_bytes_per_second(__typeof__(const pa_sample_spec *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_bytes_per_second)(a0); }
__typeof__(char *) pa_bytes_snprint(__typeof__(char *) a0, __typeof__(size_t) a1, __typeof__(unsigned int) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_bytes_snprint)(a0, a1, a2); }
__typeof__(pa_usec_t) pa_bytes_to_usec(__typeof__(uint64_t) a0, __typeof__(const pa_sample_spec *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_bytes_to_usec)(a0, a1); }
__typeof__(int) pa_channel_map_can_balance(__typeof__(const pa_channel_map *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_can_balance)(a0); }
__typeof__(int) pa_channel_map_can_fade(__typeof__(const pa_channel_map *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_can_fade)(a0); }
__typeof__(int) pa_channel_map_can_lfe_balance(__typeof__(const pa_channel_map *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_can_lfe_balance)(a0); }
__typeof__(int) pa_channel_map_compatible(__typeof__(const pa_channel_map *) a0, __typeof__(const pa_sample_spec *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_compatible)(a0, a1); }
__typeof__(int) pa_channel_map_equal(__typeof__(const pa_channel_map *) a0, __typeof__(const pa_channel_map *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_equal)(a0, a1); }
__typeof__(int) pa_channel_map_has_position(__typeof__(const pa_channel_map *) a0, __typeof__(pa_channel_position_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_has_position)(a0, a1); }
__typeof__(pa_channel_map *) pa_channel_map_init(__typeof__(pa_channel_map *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_init)(a0); }
__typeof__(pa_channel_map *) pa_channel_map_init_auto(__typeof__(pa_channel_map *) a0, __typeof__(unsigned int) a1, __typeof__(pa_channel_map_def_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_init_auto)(a0, a1, a2); }
__typeof__(pa_channel_map *) pa_channel_map_init_extend(__typeof__(pa_channel_map *) a0, __typeof__(unsigned int) a1, __typeof__(pa_channel_map_def_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_init_extend)(a0, a1, a2); }
__typeof__(pa_channel_map *) pa_channel_map_init_mono(__typeof__(pa_channel_map *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_init_mono)(a0); }
__typeof__(pa_channel_map *) pa_channel_map_init_stereo(__typeof__(pa_channel_map *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_init_stereo)(a0); }
__typeof__(pa_channel_position_mask_t) pa_channel_map_mask(__typeof__(const pa_channel_map *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_mask)(a0); }
__typeof__(pa_channel_map *) pa_channel_map_parse(__typeof__(pa_channel_map *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_parse)(a0, a1); }
__typeof__(char *) pa_channel_map_snprint(__typeof__(char *) a0, __typeof__(size_t) a1, __typeof__(const pa_channel_map *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_snprint)(a0, a1, a2); }
__typeof__(int) pa_channel_map_superset(__typeof__(const pa_channel_map *) a0, __typeof__(const pa_channel_map *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_superset)(a0, a1); }
__typeof__(const char *) pa_channel_map_to_name(__typeof__(const pa_channel_map *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_to_name)(a0); }
__typeof__(const char *) pa_channel_map_to_pretty_name(__typeof__(const pa_channel_map *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_to_pretty_name)(a0); }
__typeof__(int) pa_channel_map_valid(__typeof__(const pa_channel_map *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_map_valid)(a0); }
__typeof__(pa_channel_position_t) pa_channel_position_from_string(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_position_from_string)(a0); }
__typeof__(const char *) pa_channel_position_to_pretty_string(__typeof__(pa_channel_position_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_position_to_pretty_string)(a0); }
__typeof__(const char *) pa_channel_position_to_string(__typeof__(pa_channel_position_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channel_position_to_string)(a0); }
__typeof__(int) pa_channels_valid(__typeof__(uint8_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_channels_valid)(a0); }
__typeof__(pa_operation *) pa_context_add_autoload(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_autoload_type_t) a2, __typeof__(const char *) a3, __typeof__(const char *) a4, __typeof__(pa_context_index_cb_t) a5, __typeof__(void *) a6) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_add_autoload)(a0, a1, a2, a3, a4, a5, a6); }
__typeof__(int) pa_context_connect(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_context_flags_t) a2, __typeof__(const pa_spawn_api *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_connect)(a0, a1, a2, a3); }
__typeof__(void) pa_context_disconnect(__typeof__(pa_context *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_disconnect)(a0); }
__typeof__(pa_operation *) pa_context_drain(__typeof__(pa_context *) a0, __typeof__(pa_context_notify_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_drain)(a0, a1, a2); }
__typeof__(int) pa_context_errno(__typeof__(const pa_context *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_errno)(a0); }
__typeof__(pa_operation *) pa_context_exit_daemon(__typeof__(pa_context *) a0, __typeof__(pa_context_success_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_exit_daemon)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_get_autoload_info_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_autoload_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_autoload_info_by_index)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_autoload_info_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_autoload_type_t) a2, __typeof__(pa_autoload_info_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_autoload_info_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_get_autoload_info_list(__typeof__(pa_context *) a0, __typeof__(pa_autoload_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_autoload_info_list)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_get_card_info_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_card_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_card_info_by_index)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_card_info_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_card_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_card_info_by_name)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_card_info_list(__typeof__(pa_context *) a0, __typeof__(pa_card_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_card_info_list)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_get_client_info(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_client_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_client_info)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_client_info_list(__typeof__(pa_context *) a0, __typeof__(pa_client_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_client_info_list)(a0, a1, a2); }
__typeof__(uint32_t) pa_context_get_index(__typeof__(const pa_context *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_index)(a0); }
__typeof__(pa_operation *) pa_context_get_module_info(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_module_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_module_info)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_module_info_list(__typeof__(pa_context *) a0, __typeof__(pa_module_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_module_info_list)(a0, a1, a2); }
__typeof__(uint32_t) pa_context_get_protocol_version(__typeof__(const pa_context *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_protocol_version)(a0); }
__typeof__(pa_operation *) pa_context_get_sample_info_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_sample_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_sample_info_by_index)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_sample_info_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_sample_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_sample_info_by_name)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_sample_info_list(__typeof__(pa_context *) a0, __typeof__(pa_sample_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_sample_info_list)(a0, a1, a2); }
__typeof__(const char *) pa_context_get_server(__typeof__(const pa_context *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_server)(a0); }
__typeof__(pa_operation *) pa_context_get_server_info(__typeof__(pa_context *) a0, __typeof__(pa_server_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_server_info)(a0, a1, a2); }
__typeof__(uint32_t) pa_context_get_server_protocol_version(__typeof__(const pa_context *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_server_protocol_version)(a0); }
__typeof__(pa_operation *) pa_context_get_sink_info_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_sink_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_sink_info_by_index)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_sink_info_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_sink_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_sink_info_by_name)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_sink_info_list(__typeof__(pa_context *) a0, __typeof__(pa_sink_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_sink_info_list)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_get_sink_input_info(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_sink_input_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_sink_input_info)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_sink_input_info_list(__typeof__(pa_context *) a0, __typeof__(pa_sink_input_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_sink_input_info_list)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_get_source_info_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_source_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_source_info_by_index)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_source_info_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_source_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_source_info_by_name)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_source_info_list(__typeof__(pa_context *) a0, __typeof__(pa_source_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_source_info_list)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_get_source_output_info(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_source_output_info_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_source_output_info)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_get_source_output_info_list(__typeof__(pa_context *) a0, __typeof__(pa_source_output_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_source_output_info_list)(a0, a1, a2); }
__typeof__(pa_context_state_t) pa_context_get_state(__typeof__(const pa_context *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_state)(a0); }
__typeof__(size_t) pa_context_get_tile_size(__typeof__(const pa_context *) a0, __typeof__(const pa_sample_spec *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_get_tile_size)(a0, a1); }
__typeof__(int) pa_context_is_local(__typeof__(const pa_context *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_is_local)(a0); }
__typeof__(int) pa_context_is_pending(__typeof__(const pa_context *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_is_pending)(a0); }
__typeof__(pa_operation *) pa_context_kill_client(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_kill_client)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_kill_sink_input(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_kill_sink_input)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_kill_source_output(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_kill_source_output)(a0, a1, a2, a3); }
__typeof__(int) pa_context_load_cookie_from_file(__typeof__(pa_context *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_load_cookie_from_file)(a0, a1); }
__typeof__(pa_operation *) pa_context_load_module(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(pa_context_index_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_load_module)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_move_sink_input_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(uint32_t) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_move_sink_input_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_move_sink_input_by_name(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(const char *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_move_sink_input_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_move_source_output_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(uint32_t) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_move_source_output_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_move_source_output_by_name(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(const char *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_move_source_output_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_context *) pa_context_new(__typeof__(pa_mainloop_api *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_new)(a0, a1); }
__typeof__(pa_context *) pa_context_new_with_proplist(__typeof__(pa_mainloop_api *) a0, __typeof__(const char *) a1, __typeof__(const pa_proplist *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_new_with_proplist)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_play_sample(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(pa_volume_t) a3, __typeof__(pa_context_success_cb_t) a4, __typeof__(void *) a5) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_play_sample)(a0, a1, a2, a3, a4, a5); }
__typeof__(pa_operation *) pa_context_play_sample_with_proplist(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(pa_volume_t) a3, __typeof__(const pa_proplist *) a4, __typeof__(pa_context_play_sample_cb_t) a5, __typeof__(void *) a6) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_play_sample_with_proplist)(a0, a1, a2, a3, a4, a5, a6); }
__typeof__(pa_operation *) pa_context_proplist_remove(__typeof__(pa_context *) a0, __typeof__(const char *const *) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_proplist_remove)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_proplist_update(__typeof__(pa_context *) a0, __typeof__(pa_update_mode_t) a1, __typeof__(const pa_proplist *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_proplist_update)(a0, a1, a2, a3, a4); }
__typeof__(pa_context *) pa_context_ref(__typeof__(pa_context *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_ref)(a0); }
__typeof__(pa_operation *) pa_context_remove_autoload_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_remove_autoload_by_index)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_remove_autoload_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_autoload_type_t) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_remove_autoload_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_remove_sample(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_remove_sample)(a0, a1, a2, a3); }
__typeof__(pa_time_event *) pa_context_rttime_new(__typeof__(const pa_context *) a0, __typeof__(pa_usec_t) a1, __typeof__(pa_time_event_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_rttime_new)(a0, a1, a2, a3); }
__typeof__(void) pa_context_rttime_restart(__typeof__(const pa_context *) a0, __typeof__(pa_time_event *) a1, __typeof__(pa_usec_t) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_rttime_restart)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_send_message_to_object(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(const char *) a3, __typeof__(pa_context_string_cb_t) a4, __typeof__(void *) a5) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_send_message_to_object)(a0, a1, a2, a3, a4, a5); }
__typeof__(pa_operation *) pa_context_set_card_profile_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(const char *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_card_profile_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_card_profile_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_card_profile_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_default_sink(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_default_sink)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_set_default_source(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_default_source)(a0, a1, a2, a3); }
__typeof__(void) pa_context_set_event_callback(__typeof__(pa_context *) a0, __typeof__(pa_context_event_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_event_callback)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_set_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_name)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_set_port_latency_offset(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(int64_t) a3, __typeof__(pa_context_success_cb_t) a4, __typeof__(void *) a5) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_port_latency_offset)(a0, a1, a2, a3, a4, a5); }
__typeof__(pa_operation *) pa_context_set_sink_input_mute(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(int) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_sink_input_mute)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_sink_input_volume(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(const pa_cvolume *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_sink_input_volume)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_sink_mute_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(int) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_sink_mute_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_sink_mute_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(int) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_sink_mute_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_sink_port_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(const char *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_sink_port_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_sink_port_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_sink_port_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_sink_volume_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(const pa_cvolume *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_sink_volume_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_sink_volume_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const pa_cvolume *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_sink_volume_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_source_mute_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(int) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_source_mute_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_source_mute_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(int) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_source_mute_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_source_output_mute(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(int) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_source_output_mute)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_source_output_volume(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(const pa_cvolume *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_source_output_volume)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_source_port_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(const char *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_source_port_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_source_port_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_source_port_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_source_volume_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(const pa_cvolume *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_source_volume_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_set_source_volume_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const pa_cvolume *) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_source_volume_by_name)(a0, a1, a2, a3, a4); }
__typeof__(void) pa_context_set_state_callback(__typeof__(pa_context *) a0, __typeof__(pa_context_notify_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_state_callback)(a0, a1, a2); }
__typeof__(void) pa_context_set_subscribe_callback(__typeof__(pa_context *) a0, __typeof__(pa_context_subscribe_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_set_subscribe_callback)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_stat(__typeof__(pa_context *) a0, __typeof__(pa_stat_info_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_stat)(a0, a1, a2); }
__typeof__(pa_operation *) pa_context_subscribe(__typeof__(pa_context *) a0, __typeof__(pa_subscription_mask_t) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_subscribe)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_context_suspend_sink_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(int) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_suspend_sink_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_suspend_sink_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(int) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_suspend_sink_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_suspend_source_by_index(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(int) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_suspend_source_by_index)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_suspend_source_by_name(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(int) a2, __typeof__(pa_context_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_suspend_source_by_name)(a0, a1, a2, a3, a4); }
__typeof__(pa_operation *) pa_context_unload_module(__typeof__(pa_context *) a0, __typeof__(uint32_t) a1, __typeof__(pa_context_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_unload_module)(a0, a1, a2, a3); }
__typeof__(void) pa_context_unref(__typeof__(pa_context *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_context_unref)(a0); }
__typeof__(pa_volume_t) pa_cvolume_avg(__typeof__(const pa_cvolume *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_avg)(a0); }
__typeof__(pa_volume_t) pa_cvolume_avg_mask(__typeof__(const pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1, __typeof__(pa_channel_position_mask_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_avg_mask)(a0, a1, a2); }
__typeof__(int) pa_cvolume_channels_equal_to(__typeof__(const pa_cvolume *) a0, __typeof__(pa_volume_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_channels_equal_to)(a0, a1); }
__typeof__(int) pa_cvolume_compatible(__typeof__(const pa_cvolume *) a0, __typeof__(const pa_sample_spec *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_compatible)(a0, a1); }
__typeof__(int) pa_cvolume_compatible_with_channel_map(__typeof__(const pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_compatible_with_channel_map)(a0, a1); }
__typeof__(pa_cvolume *) pa_cvolume_dec(__typeof__(pa_cvolume *) a0, __typeof__(pa_volume_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_dec)(a0, a1); }
__typeof__(int) pa_cvolume_equal(__typeof__(const pa_cvolume *) a0, __typeof__(const pa_cvolume *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_equal)(a0, a1); }
__typeof__(float) pa_cvolume_get_balance(__typeof__(const pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_get_balance)(a0, a1); }
__typeof__(float) pa_cvolume_get_fade(__typeof__(const pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_get_fade)(a0, a1); }
__typeof__(float) pa_cvolume_get_lfe_balance(__typeof__(const pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_get_lfe_balance)(a0, a1); }
__typeof__(pa_volume_t) pa_cvolume_get_position(__typeof__(const pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1, __typeof__(pa_channel_position_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_get_position)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_cvolume_inc(__typeof__(pa_cvolume *) a0, __typeof__(pa_volume_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_inc)(a0, a1); }
__typeof__(pa_cvolume *) pa_cvolume_inc_clamp(__typeof__(pa_cvolume *) a0, __typeof__(pa_volume_t) a1, __typeof__(pa_volume_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_inc_clamp)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_cvolume_init(__typeof__(pa_cvolume *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_init)(a0); }
__typeof__(pa_volume_t) pa_cvolume_max(__typeof__(const pa_cvolume *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_max)(a0); }
__typeof__(pa_volume_t) pa_cvolume_max_mask(__typeof__(const pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1, __typeof__(pa_channel_position_mask_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_max_mask)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_cvolume_merge(__typeof__(pa_cvolume *) a0, __typeof__(const pa_cvolume *) a1, __typeof__(const pa_cvolume *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_merge)(a0, a1, a2); }
__typeof__(pa_volume_t) pa_cvolume_min(__typeof__(const pa_cvolume *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_min)(a0); }
__typeof__(pa_volume_t) pa_cvolume_min_mask(__typeof__(const pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1, __typeof__(pa_channel_position_mask_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_min_mask)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_cvolume_remap(__typeof__(pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1, __typeof__(const pa_channel_map *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_remap)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_cvolume_scale(__typeof__(pa_cvolume *) a0, __typeof__(pa_volume_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_scale)(a0, a1); }
__typeof__(pa_cvolume *) pa_cvolume_scale_mask(__typeof__(pa_cvolume *) a0, __typeof__(pa_volume_t) a1, __typeof__(const pa_channel_map *) a2, __typeof__(pa_channel_position_mask_t) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_scale_mask)(a0, a1, a2, a3); }
__typeof__(pa_cvolume *) pa_cvolume_set(__typeof__(pa_cvolume *) a0, __typeof__(unsigned int) a1, __typeof__(pa_volume_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_set)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_cvolume_set_balance(__typeof__(pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1, __typeof__(float) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_set_balance)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_cvolume_set_fade(__typeof__(pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1, __typeof__(float) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_set_fade)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_cvolume_set_lfe_balance(__typeof__(pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1, __typeof__(float) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_set_lfe_balance)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_cvolume_set_position(__typeof__(pa_cvolume *) a0, __typeof__(const pa_channel_map *) a1, __typeof__(pa_channel_position_t) a2, __typeof__(pa_volume_t) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_set_position)(a0, a1, a2, a3); }
__typeof__(char *) pa_cvolume_snprint(__typeof__(char *) a0, __typeof__(size_t) a1, __typeof__(const pa_cvolume *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_snprint)(a0, a1, a2); }
__typeof__(char *) pa_cvolume_snprint_verbose(__typeof__(char *) a0, __typeof__(size_t) a1, __typeof__(const pa_cvolume *) a2, __typeof__(const pa_channel_map *) a3, __typeof__(int) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_snprint_verbose)(a0, a1, a2, a3, a4); }
__typeof__(int) pa_cvolume_valid(__typeof__(const pa_cvolume *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_cvolume_valid)(a0); }
__typeof__(const char *) pa_direction_to_string(__typeof__(pa_direction_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_direction_to_string)(a0); }
__typeof__(int) pa_direction_valid(__typeof__(pa_direction_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_direction_valid)(a0); }
__typeof__(pa_encoding_t) pa_encoding_from_string(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_encoding_from_string)(a0); }
__typeof__(const char *) pa_encoding_to_string(__typeof__(pa_encoding_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_encoding_to_string)(a0); }
__typeof__(pa_format_info *) pa_format_info_copy(__typeof__(const pa_format_info *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_copy)(a0); }
__typeof__(void) pa_format_info_free(__typeof__(pa_format_info *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_free)(a0); }
__typeof__(void) pa_format_info_free_string_array(__typeof__(char **) a0, __typeof__(int) a1) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_free_string_array)(a0, a1); }
__typeof__(pa_format_info *) pa_format_info_from_sample_spec(__typeof__(const pa_sample_spec *) a0, __typeof__(const pa_channel_map *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_from_sample_spec)(a0, a1); }
__typeof__(pa_format_info *) pa_format_info_from_string(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_from_string)(a0); }
__typeof__(int) pa_format_info_get_channel_map(__typeof__(const pa_format_info *) a0, __typeof__(pa_channel_map *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_get_channel_map)(a0, a1); }
__typeof__(int) pa_format_info_get_channels(__typeof__(const pa_format_info *) a0, __typeof__(uint8_t *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_get_channels)(a0, a1); }
__typeof__(int) pa_format_info_get_prop_int(__typeof__(const pa_format_info *) a0, __typeof__(const char *) a1, __typeof__(int *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_get_prop_int)(a0, a1, a2); }
__typeof__(int) pa_format_info_get_prop_int_array(__typeof__(const pa_format_info *) a0, __typeof__(const char *) a1, __typeof__(int **) a2, __typeof__(int *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_get_prop_int_array)(a0, a1, a2, a3); }
__typeof__(int) pa_format_info_get_prop_int_range(__typeof__(const pa_format_info *) a0, __typeof__(const char *) a1, __typeof__(int *) a2, __typeof__(int *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_get_prop_int_range)(a0, a1, a2, a3); }
__typeof__(int) pa_format_info_get_prop_string(__typeof__(const pa_format_info *) a0, __typeof__(const char *) a1, __typeof__(char **) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_get_prop_string)(a0, a1, a2); }
__typeof__(int) pa_format_info_get_prop_string_array(__typeof__(const pa_format_info *) a0, __typeof__(const char *) a1, __typeof__(char ***) a2, __typeof__(int *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_get_prop_string_array)(a0, a1, a2, a3); }
__typeof__(pa_prop_type_t) pa_format_info_get_prop_type(__typeof__(const pa_format_info *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_get_prop_type)(a0, a1); }
__typeof__(int) pa_format_info_get_rate(__typeof__(const pa_format_info *) a0, __typeof__(uint32_t *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_get_rate)(a0, a1); }
__typeof__(int) pa_format_info_get_sample_format(__typeof__(const pa_format_info *) a0, __typeof__(pa_sample_format_t *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_get_sample_format)(a0, a1); }
__typeof__(int) pa_format_info_is_compatible(__typeof__(const pa_format_info *) a0, __typeof__(const pa_format_info *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_is_compatible)(a0, a1); }
__typeof__(int) pa_format_info_is_pcm(__typeof__(const pa_format_info *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_is_pcm)(a0); }
__typeof__(pa_format_info *) pa_format_info_new(void) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_new)(); }
__typeof__(void) pa_format_info_set_channel_map(__typeof__(pa_format_info *) a0, __typeof__(const pa_channel_map *) a1) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_set_channel_map)(a0, a1); }
__typeof__(void) pa_format_info_set_channels(__typeof__(pa_format_info *) a0, __typeof__(int) a1) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_set_channels)(a0, a1); }
__typeof__(void) pa_format_info_set_prop_int(__typeof__(pa_format_info *) a0, __typeof__(const char *) a1, __typeof__(int) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_set_prop_int)(a0, a1, a2); }
__typeof__(void) pa_format_info_set_prop_int_array(__typeof__(pa_format_info *) a0, __typeof__(const char *) a1, __typeof__(const int *) a2, __typeof__(int) a3) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_set_prop_int_array)(a0, a1, a2, a3); }
__typeof__(void) pa_format_info_set_prop_int_range(__typeof__(pa_format_info *) a0, __typeof__(const char *) a1, __typeof__(int) a2, __typeof__(int) a3) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_set_prop_int_range)(a0, a1, a2, a3); }
__typeof__(void) pa_format_info_set_prop_string(__typeof__(pa_format_info *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_set_prop_string)(a0, a1, a2); }
__typeof__(void) pa_format_info_set_prop_string_array(__typeof__(pa_format_info *) a0, __typeof__(const char *) a1, __typeof__(const char **) a2, __typeof__(int) a3) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_set_prop_string_array)(a0, a1, a2, a3); }
__typeof__(void) pa_format_info_set_rate(__typeof__(pa_format_info *) a0, __typeof__(int) a1) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_set_rate)(a0, a1); }
__typeof__(void) pa_format_info_set_sample_format(__typeof__(pa_format_info *) a0, __typeof__(pa_sample_format_t) a1) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_set_sample_format)(a0, a1); }
__typeof__(char *) pa_format_info_snprint(__typeof__(char *) a0, __typeof__(size_t) a1, __typeof__(const pa_format_info *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_snprint)(a0, a1, a2); }
__typeof__(int) pa_format_info_to_sample_spec(__typeof__(const pa_format_info *) a0, __typeof__(pa_sample_spec *) a1, __typeof__(pa_channel_map *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_to_sample_spec)(a0, a1, a2); }
__typeof__(int) pa_format_info_valid(__typeof__(const pa_format_info *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_format_info_valid)(a0); }
__typeof__(size_t) pa_frame_size(__typeof__(const pa_sample_spec *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_frame_size)(a0); }
__typeof__(char *) pa_get_binary_name(__typeof__(char *) a0, __typeof__(size_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_get_binary_name)(a0, a1); }
__typeof__(char *) pa_get_fqdn(__typeof__(char *) a0, __typeof__(size_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_get_fqdn)(a0, a1); }
__typeof__(char *) pa_get_home_dir(__typeof__(char *) a0, __typeof__(size_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_get_home_dir)(a0, a1); }
__typeof__(char *) pa_get_host_name(__typeof__(char *) a0, __typeof__(size_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_get_host_name)(a0, a1); }
__typeof__(const char *) pa_get_library_version(void) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_get_library_version)(); }
__typeof__(char *) pa_get_user_name(__typeof__(char *) a0, __typeof__(size_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_get_user_name)(a0, a1); }
__typeof__(struct timeval *) pa_gettimeofday(__typeof__(struct timeval *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_gettimeofday)(a0); }
__typeof__(char *) pa_locale_to_utf8(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_locale_to_utf8)(a0); }
__typeof__(void) pa_mainloop_api_once(__typeof__(pa_mainloop_api *) a0, __typeof__(void (*)(pa_mainloop_api *, void *)) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_api_once)(a0, a1, a2); }
__typeof__(int) pa_mainloop_dispatch(__typeof__(pa_mainloop *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_dispatch)(a0); }
__typeof__(void) pa_mainloop_free(__typeof__(pa_mainloop *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_free)(a0); }
__typeof__(pa_mainloop_api *) pa_mainloop_get_api(__typeof__(pa_mainloop *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_get_api)(a0); }
__typeof__(int) pa_mainloop_get_retval(__typeof__(const pa_mainloop *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_get_retval)(a0); }
__typeof__(int) pa_mainloop_iterate(__typeof__(pa_mainloop *) a0, __typeof__(int) a1, __typeof__(int *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_iterate)(a0, a1, a2); }
__typeof__(pa_mainloop *) pa_mainloop_new(void) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_new)(); }
__typeof__(int) pa_mainloop_poll(__typeof__(pa_mainloop *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_poll)(a0); }
__typeof__(int) pa_mainloop_prepare(__typeof__(pa_mainloop *) a0, __typeof__(int) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_prepare)(a0, a1); }
__typeof__(void) pa_mainloop_quit(__typeof__(pa_mainloop *) a0, __typeof__(int) a1) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_quit)(a0, a1); }
__typeof__(int) pa_mainloop_run(__typeof__(pa_mainloop *) a0, __typeof__(int *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_run)(a0, a1); }
__typeof__(void) pa_mainloop_set_poll_func(__typeof__(pa_mainloop *) a0, __typeof__(pa_poll_func) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_set_poll_func)(a0, a1, a2); }
__typeof__(void) pa_mainloop_wakeup(__typeof__(pa_mainloop *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_mainloop_wakeup)(a0); }
__typeof__(int) pa_msleep(__typeof__(unsigned long) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_msleep)(a0); }
__typeof__(void) pa_operation_cancel(__typeof__(pa_operation *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_operation_cancel)(a0); }
__typeof__(pa_operation_state_t) pa_operation_get_state(__typeof__(const pa_operation *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_operation_get_state)(a0); }
__typeof__(pa_operation *) pa_operation_ref(__typeof__(pa_operation *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_operation_ref)(a0); }
__typeof__(void) pa_operation_set_state_callback(__typeof__(pa_operation *) a0, __typeof__(pa_operation_notify_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_operation_set_state_callback)(a0, a1, a2); }
__typeof__(void) pa_operation_unref(__typeof__(pa_operation *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_operation_unref)(a0); }
__typeof__(pa_sample_format_t) pa_parse_sample_format(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_parse_sample_format)(a0); }
__typeof__(char *) pa_path_get_filename(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_path_get_filename)(a0); }
__typeof__(void) pa_proplist_clear(__typeof__(pa_proplist *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_clear)(a0); }
__typeof__(int) pa_proplist_contains(__typeof__(const pa_proplist *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_contains)(a0, a1); }
__typeof__(pa_proplist *) pa_proplist_copy(__typeof__(const pa_proplist *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_copy)(a0); }
__typeof__(int) pa_proplist_equal(__typeof__(const pa_proplist *) a0, __typeof__(const pa_proplist *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_equal)(a0, a1); }
__typeof__(void) pa_proplist_free(__typeof__(pa_proplist *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_free)(a0); }
__typeof__(pa_proplist *) pa_proplist_from_string(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_from_string)(a0); }
__typeof__(int) pa_proplist_get(__typeof__(const pa_proplist *) a0, __typeof__(const char *) a1, __typeof__(const void **) a2, __typeof__(size_t *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_get)(a0, a1, a2, a3); }
__typeof__(const char *) pa_proplist_gets(__typeof__(const pa_proplist *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_gets)(a0, a1); }
__typeof__(int) pa_proplist_isempty(__typeof__(const pa_proplist *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_isempty)(a0); }
__typeof__(const char *) pa_proplist_iterate(__typeof__(const pa_proplist *) a0, __typeof__(void **) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_iterate)(a0, a1); }
__typeof__(int) pa_proplist_key_valid(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_key_valid)(a0); }
__typeof__(pa_proplist *) pa_proplist_new(void) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_new)(); }
__typeof__(int) pa_proplist_set(__typeof__(pa_proplist *) a0, __typeof__(const char *) a1, __typeof__(const void *) a2, __typeof__(size_t) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_set)(a0, a1, a2, a3); }
__typeof__(int) pa_proplist_setp(__typeof__(pa_proplist *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_setp)(a0, a1); }
__typeof__(int) pa_proplist_sets(__typeof__(pa_proplist *) a0, __typeof__(const char *) a1, __typeof__(const char *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_sets)(a0, a1, a2); }
__typeof__(unsigned int) pa_proplist_size(__typeof__(const pa_proplist *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_size)(a0); }
__typeof__(char *) pa_proplist_to_string(__typeof__(const pa_proplist *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_to_string)(a0); }
__typeof__(char *) pa_proplist_to_string_sep(__typeof__(const pa_proplist *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_to_string_sep)(a0, a1); }
__typeof__(int) pa_proplist_unset(__typeof__(pa_proplist *) a0, __typeof__(const char *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_unset)(a0, a1); }
__typeof__(int) pa_proplist_unset_many(__typeof__(pa_proplist *) a0, __typeof__(const char *const *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_unset_many)(a0, a1); }
__typeof__(void) pa_proplist_update(__typeof__(pa_proplist *) a0, __typeof__(pa_update_mode_t) a1, __typeof__(const pa_proplist *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_proplist_update)(a0, a1, a2); }
__typeof__(pa_usec_t) pa_rtclock_now(void) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_rtclock_now)(); }
__typeof__(int) pa_sample_format_is_be(__typeof__(pa_sample_format_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_format_is_be)(a0); }
__typeof__(int) pa_sample_format_is_le(__typeof__(pa_sample_format_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_format_is_le)(a0); }
__typeof__(const char *) pa_sample_format_to_string(__typeof__(pa_sample_format_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_format_to_string)(a0); }
__typeof__(int) pa_sample_format_valid(__typeof__(unsigned int) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_format_valid)(a0); }
__typeof__(int) pa_sample_rate_valid(__typeof__(uint32_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_rate_valid)(a0); }
__typeof__(size_t) pa_sample_size(__typeof__(const pa_sample_spec *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_size)(a0); }
__typeof__(size_t) pa_sample_size_of_format(__typeof__(pa_sample_format_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_size_of_format)(a0); }
__typeof__(int) pa_sample_spec_equal(__typeof__(const pa_sample_spec *) a0, __typeof__(const pa_sample_spec *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_spec_equal)(a0, a1); }
__typeof__(pa_sample_spec *) pa_sample_spec_init(__typeof__(pa_sample_spec *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_spec_init)(a0); }
__typeof__(char *) pa_sample_spec_snprint(__typeof__(char *) a0, __typeof__(size_t) a1, __typeof__(const pa_sample_spec *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_spec_snprint)(a0, a1, a2); }
__typeof__(int) pa_sample_spec_valid(__typeof__(const pa_sample_spec *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sample_spec_valid)(a0); }
__typeof__(void) pa_signal_done(void) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_signal_done)(); }
__typeof__(void) pa_signal_free(__typeof__(pa_signal_event *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_signal_free)(a0); }
__typeof__(int) pa_signal_init(__typeof__(pa_mainloop_api *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_signal_init)(a0); }
__typeof__(pa_signal_event *) pa_signal_new(__typeof__(int) a0, __typeof__(pa_signal_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_signal_new)(a0, a1, a2); }
__typeof__(void) pa_signal_set_destroy(__typeof__(pa_signal_event *) a0, __typeof__(pa_signal_destroy_cb_t) a1) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_signal_set_destroy)(a0, a1); }
__typeof__(int) pa_stream_begin_write(__typeof__(pa_stream *) a0, __typeof__(void **) a1, __typeof__(size_t *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_begin_write)(a0, a1, a2); }
__typeof__(int) pa_stream_cancel_write(__typeof__(pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_cancel_write)(a0); }
__typeof__(int) pa_stream_connect_playback(__typeof__(pa_stream *) a0, __typeof__(const char *) a1, __typeof__(const pa_buffer_attr *) a2, __typeof__(pa_stream_flags_t) a3, __typeof__(const pa_cvolume *) a4, __typeof__(pa_stream *) a5) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_connect_playback)(a0, a1, a2, a3, a4, a5); }
__typeof__(int) pa_stream_connect_record(__typeof__(pa_stream *) a0, __typeof__(const char *) a1, __typeof__(const pa_buffer_attr *) a2, __typeof__(pa_stream_flags_t) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_connect_record)(a0, a1, a2, a3); }
__typeof__(int) pa_stream_connect_upload(__typeof__(pa_stream *) a0, __typeof__(size_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_connect_upload)(a0, a1); }
__typeof__(pa_operation *) pa_stream_cork(__typeof__(pa_stream *) a0, __typeof__(int) a1, __typeof__(pa_stream_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_cork)(a0, a1, a2, a3); }
__typeof__(int) pa_stream_disconnect(__typeof__(pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_disconnect)(a0); }
__typeof__(pa_operation *) pa_stream_drain(__typeof__(pa_stream *) a0, __typeof__(pa_stream_success_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_drain)(a0, a1, a2); }
__typeof__(int) pa_stream_drop(__typeof__(pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_drop)(a0); }
__typeof__(int) pa_stream_finish_upload(__typeof__(pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_finish_upload)(a0); }
__typeof__(pa_operation *) pa_stream_flush(__typeof__(pa_stream *) a0, __typeof__(pa_stream_success_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_flush)(a0, a1, a2); }
__typeof__(const pa_buffer_attr *) pa_stream_get_buffer_attr(__typeof__(pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_buffer_attr)(a0); }
__typeof__(const pa_channel_map *) pa_stream_get_channel_map(__typeof__(pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_channel_map)(a0); }
__typeof__(pa_context *) pa_stream_get_context(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_context)(a0); }
__typeof__(uint32_t) pa_stream_get_device_index(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_device_index)(a0); }
__typeof__(const char *) pa_stream_get_device_name(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_device_name)(a0); }
__typeof__(const pa_format_info *) pa_stream_get_format_info(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_format_info)(a0); }
__typeof__(uint32_t) pa_stream_get_index(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_index)(a0); }
__typeof__(int) pa_stream_get_latency(__typeof__(pa_stream *) a0, __typeof__(pa_usec_t *) a1, __typeof__(int *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_latency)(a0, a1, a2); }
__typeof__(uint32_t) pa_stream_get_monitor_stream(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_monitor_stream)(a0); }
__typeof__(const pa_sample_spec *) pa_stream_get_sample_spec(__typeof__(pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_sample_spec)(a0); }
__typeof__(pa_stream_state_t) pa_stream_get_state(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_state)(a0); }
__typeof__(int) pa_stream_get_time(__typeof__(pa_stream *) a0, __typeof__(pa_usec_t *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_time)(a0, a1); }
__typeof__(const pa_timing_info *) pa_stream_get_timing_info(__typeof__(pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_timing_info)(a0); }
__typeof__(int64_t) pa_stream_get_underflow_index(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_get_underflow_index)(a0); }
__typeof__(int) pa_stream_is_corked(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_is_corked)(a0); }
__typeof__(int) pa_stream_is_suspended(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_is_suspended)(a0); }
__typeof__(pa_stream *) pa_stream_new(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const pa_sample_spec *) a2, __typeof__(const pa_channel_map *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_new)(a0, a1, a2, a3); }
__typeof__(pa_stream *) pa_stream_new_extended(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(pa_format_info *const *) a2, __typeof__(unsigned int) a3, __typeof__(pa_proplist *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_new_extended)(a0, a1, a2, a3, a4); }
__typeof__(pa_stream *) pa_stream_new_with_proplist(__typeof__(pa_context *) a0, __typeof__(const char *) a1, __typeof__(const pa_sample_spec *) a2, __typeof__(const pa_channel_map *) a3, __typeof__(pa_proplist *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_new_with_proplist)(a0, a1, a2, a3, a4); }
__typeof__(int) pa_stream_peek(__typeof__(pa_stream *) a0, __typeof__(const void **) a1, __typeof__(size_t *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_peek)(a0, a1, a2); }
__typeof__(pa_operation *) pa_stream_prebuf(__typeof__(pa_stream *) a0, __typeof__(pa_stream_success_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_prebuf)(a0, a1, a2); }
__typeof__(pa_operation *) pa_stream_proplist_remove(__typeof__(pa_stream *) a0, __typeof__(const char *const *) a1, __typeof__(pa_stream_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_proplist_remove)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_stream_proplist_update(__typeof__(pa_stream *) a0, __typeof__(pa_update_mode_t) a1, __typeof__(pa_proplist *) a2, __typeof__(pa_stream_success_cb_t) a3, __typeof__(void *) a4) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_proplist_update)(a0, a1, a2, a3, a4); }
__typeof__(size_t) pa_stream_readable_size(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_readable_size)(a0); }
__typeof__(pa_stream *) pa_stream_ref(__typeof__(pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_ref)(a0); }
__typeof__(pa_operation *) pa_stream_set_buffer_attr(__typeof__(pa_stream *) a0, __typeof__(const pa_buffer_attr *) a1, __typeof__(pa_stream_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_buffer_attr)(a0, a1, a2, a3); }
__typeof__(void) pa_stream_set_buffer_attr_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_notify_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_buffer_attr_callback)(a0, a1, a2); }
__typeof__(void) pa_stream_set_event_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_event_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_event_callback)(a0, a1, a2); }
__typeof__(void) pa_stream_set_latency_update_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_notify_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_latency_update_callback)(a0, a1, a2); }
__typeof__(int) pa_stream_set_monitor_stream(__typeof__(pa_stream *) a0, __typeof__(uint32_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_monitor_stream)(a0, a1); }
__typeof__(void) pa_stream_set_moved_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_notify_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_moved_callback)(a0, a1, a2); }
__typeof__(pa_operation *) pa_stream_set_name(__typeof__(pa_stream *) a0, __typeof__(const char *) a1, __typeof__(pa_stream_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_name)(a0, a1, a2, a3); }
__typeof__(void) pa_stream_set_overflow_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_notify_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_overflow_callback)(a0, a1, a2); }
__typeof__(void) pa_stream_set_read_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_request_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_read_callback)(a0, a1, a2); }
__typeof__(void) pa_stream_set_started_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_notify_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_started_callback)(a0, a1, a2); }
__typeof__(void) pa_stream_set_state_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_notify_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_state_callback)(a0, a1, a2); }
__typeof__(void) pa_stream_set_suspended_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_notify_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_suspended_callback)(a0, a1, a2); }
__typeof__(void) pa_stream_set_underflow_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_notify_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_underflow_callback)(a0, a1, a2); }
__typeof__(void) pa_stream_set_write_callback(__typeof__(pa_stream *) a0, __typeof__(pa_stream_request_cb_t) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_set_write_callback)(a0, a1, a2); }
__typeof__(pa_operation *) pa_stream_trigger(__typeof__(pa_stream *) a0, __typeof__(pa_stream_success_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_trigger)(a0, a1, a2); }
__typeof__(void) pa_stream_unref(__typeof__(pa_stream *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_unref)(a0); }
__typeof__(pa_operation *) pa_stream_update_sample_rate(__typeof__(pa_stream *) a0, __typeof__(uint32_t) a1, __typeof__(pa_stream_success_cb_t) a2, __typeof__(void *) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_update_sample_rate)(a0, a1, a2, a3); }
__typeof__(pa_operation *) pa_stream_update_timing_info(__typeof__(pa_stream *) a0, __typeof__(pa_stream_success_cb_t) a1, __typeof__(void *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_update_timing_info)(a0, a1, a2); }
__typeof__(size_t) pa_stream_writable_size(__typeof__(const pa_stream *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_writable_size)(a0); }
__typeof__(int) pa_stream_write(__typeof__(pa_stream *) a0, __typeof__(const void *) a1, __typeof__(size_t) a2, __typeof__(pa_free_cb_t) a3, __typeof__(int64_t) a4, __typeof__(pa_seek_mode_t) a5) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_write)(a0, a1, a2, a3, a4, a5); }
__typeof__(int) pa_stream_write_ext_free(__typeof__(pa_stream *) a0, __typeof__(const void *) a1, __typeof__(size_t) a2, __typeof__(pa_free_cb_t) a3, __typeof__(void *) a4, __typeof__(int64_t) a5, __typeof__(pa_seek_mode_t) a6) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_stream_write_ext_free)(a0, a1, a2, a3, a4, a5, a6); }
__typeof__(const char *) pa_strerror(__typeof__(int) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_strerror)(a0); }
__typeof__(pa_cvolume *) pa_sw_cvolume_divide(__typeof__(pa_cvolume *) a0, __typeof__(const pa_cvolume *) a1, __typeof__(const pa_cvolume *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_cvolume_divide)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_sw_cvolume_divide_scalar(__typeof__(pa_cvolume *) a0, __typeof__(const pa_cvolume *) a1, __typeof__(pa_volume_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_cvolume_divide_scalar)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_sw_cvolume_multiply(__typeof__(pa_cvolume *) a0, __typeof__(const pa_cvolume *) a1, __typeof__(const pa_cvolume *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_cvolume_multiply)(a0, a1, a2); }
__typeof__(pa_cvolume *) pa_sw_cvolume_multiply_scalar(__typeof__(pa_cvolume *) a0, __typeof__(const pa_cvolume *) a1, __typeof__(pa_volume_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_cvolume_multiply_scalar)(a0, a1, a2); }
__typeof__(char *) pa_sw_cvolume_snprint_dB(__typeof__(char *) a0, __typeof__(size_t) a1, __typeof__(const pa_cvolume *) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_cvolume_snprint_dB)(a0, a1, a2); }
__typeof__(pa_volume_t) pa_sw_volume_divide(__typeof__(pa_volume_t) a0, __typeof__(pa_volume_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_volume_divide)(a0, a1); }
__typeof__(pa_volume_t) pa_sw_volume_from_dB(__typeof__(double) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_volume_from_dB)(a0); }
__typeof__(pa_volume_t) pa_sw_volume_from_linear(__typeof__(double) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_volume_from_linear)(a0); }
__typeof__(pa_volume_t) pa_sw_volume_multiply(__typeof__(pa_volume_t) a0, __typeof__(pa_volume_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_volume_multiply)(a0, a1); }
__typeof__(char *) pa_sw_volume_snprint_dB(__typeof__(char *) a0, __typeof__(size_t) a1, __typeof__(pa_volume_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_volume_snprint_dB)(a0, a1, a2); }
__typeof__(double) pa_sw_volume_to_dB(__typeof__(pa_volume_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_volume_to_dB)(a0); }
__typeof__(double) pa_sw_volume_to_linear(__typeof__(pa_volume_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_sw_volume_to_linear)(a0); }
__typeof__(int) pa_thread_make_realtime(__typeof__(int) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_thread_make_realtime)(a0); }
__typeof__(void) pa_threaded_mainloop_accept(__typeof__(pa_threaded_mainloop *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_accept)(a0); }
__typeof__(void) pa_threaded_mainloop_free(__typeof__(pa_threaded_mainloop *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_free)(a0); }
__typeof__(pa_mainloop_api *) pa_threaded_mainloop_get_api(__typeof__(pa_threaded_mainloop *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_get_api)(a0); }
__typeof__(int) pa_threaded_mainloop_get_retval(__typeof__(const pa_threaded_mainloop *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_get_retval)(a0); }
__typeof__(int) pa_threaded_mainloop_in_thread(__typeof__(pa_threaded_mainloop *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_in_thread)(a0); }
__typeof__(void) pa_threaded_mainloop_lock(__typeof__(pa_threaded_mainloop *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_lock)(a0); }
__typeof__(pa_threaded_mainloop *) pa_threaded_mainloop_new(void) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_new)(); }
__typeof__(void) pa_threaded_mainloop_once_unlocked(__typeof__(pa_threaded_mainloop *) a0, __typeof__(void (*)(pa_threaded_mainloop *, void *)) a1, __typeof__(void *) a2) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_once_unlocked)(a0, a1, a2); }
__typeof__(void) pa_threaded_mainloop_set_name(__typeof__(pa_threaded_mainloop *) a0, __typeof__(const char *) a1) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_set_name)(a0, a1); }
__typeof__(void) pa_threaded_mainloop_signal(__typeof__(pa_threaded_mainloop *) a0, __typeof__(int) a1) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_signal)(a0, a1); }
__typeof__(int) pa_threaded_mainloop_start(__typeof__(pa_threaded_mainloop *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_start)(a0); }
__typeof__(void) pa_threaded_mainloop_stop(__typeof__(pa_threaded_mainloop *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_stop)(a0); }
__typeof__(void) pa_threaded_mainloop_unlock(__typeof__(pa_threaded_mainloop *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_unlock)(a0); }
__typeof__(void) pa_threaded_mainloop_wait(__typeof__(pa_threaded_mainloop *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_threaded_mainloop_wait)(a0); }
__typeof__(struct timeval *) pa_timeval_add(__typeof__(struct timeval *) a0, __typeof__(pa_usec_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_timeval_add)(a0, a1); }
__typeof__(pa_usec_t) pa_timeval_age(__typeof__(const struct timeval *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_timeval_age)(a0); }
__typeof__(int) pa_timeval_cmp(__typeof__(const struct timeval *) a0, __typeof__(const struct timeval *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_timeval_cmp)(a0, a1); }
__typeof__(pa_usec_t) pa_timeval_diff(__typeof__(const struct timeval *) a0, __typeof__(const struct timeval *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_timeval_diff)(a0, a1); }
__typeof__(pa_usec_t) pa_timeval_load(__typeof__(const struct timeval *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_timeval_load)(a0); }
__typeof__(struct timeval *) pa_timeval_store(__typeof__(struct timeval *) a0, __typeof__(pa_usec_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_timeval_store)(a0, a1); }
__typeof__(struct timeval *) pa_timeval_sub(__typeof__(struct timeval *) a0, __typeof__(pa_usec_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_timeval_sub)(a0, a1); }
__typeof__(size_t) pa_usec_to_bytes(__typeof__(pa_usec_t) a0, __typeof__(const pa_sample_spec *) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_usec_to_bytes)(a0, a1); }
__typeof__(char *) pa_utf8_filter(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_utf8_filter)(a0); }
__typeof__(char *) pa_utf8_to_locale(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_utf8_to_locale)(a0); }
__typeof__(char *) pa_utf8_valid(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_utf8_valid)(a0); }
__typeof__(char *) pa_volume_snprint(__typeof__(char *) a0, __typeof__(size_t) a1, __typeof__(pa_volume_t) a2) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_volume_snprint)(a0, a1, a2); }
__typeof__(char *) pa_volume_snprint_verbose(__typeof__(char *) a0, __typeof__(size_t) a1, __typeof__(pa_volume_t) a2, __typeof__(int) a3) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_volume_snprint_verbose)(a0, a1, a2, a3); }
__typeof__(void) pa_xfree(__typeof__(void *) a0) { LIBRARY_FUNCTION(LibraryLoadingPulse, pa_xfree)(a0); }
__typeof__(void *) pa_xmalloc(__typeof__(size_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_xmalloc)(a0); }
__typeof__(void *) pa_xmalloc0(__typeof__(size_t) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_xmalloc0)(a0); }
__typeof__(void *) pa_xmemdup(__typeof__(const void *) a0, __typeof__(size_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_xmemdup)(a0, a1); }
__typeof__(void *) pa_xrealloc(__typeof__(void *) a0, __typeof__(size_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_xrealloc)(a0, a1); }
__typeof__(char *) pa_xstrdup(__typeof__(const char *) a0) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_xstrdup)(a0); }
__typeof__(char *) pa_xstrndup(__typeof__(const char *) a0, __typeof__(size_t) a1) { return LIBRARY_FUNCTION(LibraryLoadingPulse, pa_xstrndup)(a0, a1); }

/*
 * mime-dl.h: the GMime, GLib and GPGME functions mail.c and pgp.c call,
 * each through the pointer crown finds when it is first called
 * (crown/dynlib.h): crown is not linked with these libraries, so a call
 * of one not listed here is a reference the link refuses.  GLib is
 * reached through GMime, which is linked with it.  Included after
 * <gmime/gmime.h> and <gpgme.h>.
 */
#ifndef CROWN_MIME_DL_H
#define CROWN_MIME_DL_H

#include "crown/dynlib.h"

#define DL_GMIME(f)	CROWN_DL(crown_dl_gmime, f)
#define DL_GPGME(f)	CROWN_DL(crown_dl_gpgme, f)
#define DL_GMIME_VAR(v)	CROWN_DL_VAR(crown_dl_gmime, v)

#define g_ascii_strcasecmp	DL_GMIME(g_ascii_strcasecmp)
#define g_date_time_new_from_unix_utc	DL_GMIME(g_date_time_new_from_unix_utc)
#define g_date_time_unref	DL_GMIME(g_date_time_unref)
#define g_error_free	DL_GMIME(g_error_free)
#define g_free	DL_GMIME(g_free)
#define g_mime_certificate_get_fingerprint \
	DL_GMIME(g_mime_certificate_get_fingerprint)
#define g_mime_content_type_get_parameter \
	DL_GMIME(g_mime_content_type_get_parameter)
#define g_mime_content_type_is_type	DL_GMIME(g_mime_content_type_is_type)
#define g_mime_content_type_parse	DL_GMIME(g_mime_content_type_parse)
#define g_mime_crypto_context_register	DL_GMIME(g_mime_crypto_context_register)
#define g_mime_data_wrapper_new_with_stream \
	DL_GMIME(g_mime_data_wrapper_new_with_stream)
#define g_mime_data_wrapper_write_to_stream \
	DL_GMIME(g_mime_data_wrapper_write_to_stream)
#define g_mime_filter_charset_new	DL_GMIME(g_mime_filter_charset_new)
#define g_mime_gpg_context_new	DL_GMIME(g_mime_gpg_context_new)
#define g_mime_init	DL_GMIME(g_mime_init)
#define g_mime_message_add_mailbox	DL_GMIME(g_mime_message_add_mailbox)
#define g_mime_message_foreach	DL_GMIME(g_mime_message_foreach)
#define g_mime_message_get_from	DL_GMIME(g_mime_message_get_from)
#define g_mime_message_get_message_id	DL_GMIME(g_mime_message_get_message_id)
#define g_mime_message_get_mime_part	DL_GMIME(g_mime_message_get_mime_part)
#define g_mime_message_get_subject	DL_GMIME(g_mime_message_get_subject)
#define g_mime_message_new	DL_GMIME(g_mime_message_new)
#define g_mime_message_set_date	DL_GMIME(g_mime_message_set_date)
#define g_mime_message_set_message_id	DL_GMIME(g_mime_message_set_message_id)
#define g_mime_message_set_mime_part	DL_GMIME(g_mime_message_set_mime_part)
#define g_mime_message_set_subject	DL_GMIME(g_mime_message_set_subject)
#define g_mime_multipart_add	DL_GMIME(g_mime_multipart_add)
#define g_mime_multipart_get_count	DL_GMIME(g_mime_multipart_get_count)
#define g_mime_multipart_get_type	DL_GMIME(g_mime_multipart_get_type)
#define g_mime_multipart_new_with_subtype \
	DL_GMIME(g_mime_multipart_new_with_subtype)
#define g_mime_multipart_set_boundary	DL_GMIME(g_mime_multipart_set_boundary)
#define g_mime_multipart_signed_get_type \
	DL_GMIME(g_mime_multipart_signed_get_type)
#define g_mime_multipart_signed_verify	DL_GMIME(g_mime_multipart_signed_verify)
#define g_mime_object_get_content_type	DL_GMIME(g_mime_object_get_content_type)
#define g_mime_object_get_content_type_parameter \
	DL_GMIME(g_mime_object_get_content_type_parameter)
#define g_mime_object_get_header	DL_GMIME(g_mime_object_get_header)
#define g_mime_object_get_type	DL_GMIME(g_mime_object_get_type)
#define g_mime_object_set_content_type_parameter \
	DL_GMIME(g_mime_object_set_content_type_parameter)
#define g_mime_object_set_disposition	DL_GMIME(g_mime_object_set_disposition)
#define g_mime_object_set_header	DL_GMIME(g_mime_object_set_header)
#define g_mime_object_to_string	DL_GMIME(g_mime_object_to_string)
#define g_mime_parser_construct_message \
	DL_GMIME(g_mime_parser_construct_message)
#define g_mime_parser_new_with_stream	DL_GMIME(g_mime_parser_new_with_stream)
#define g_mime_part_get_best_content_encoding \
	DL_GMIME(g_mime_part_get_best_content_encoding)
#define g_mime_part_get_content	DL_GMIME(g_mime_part_get_content)
#define g_mime_part_get_filename	DL_GMIME(g_mime_part_get_filename)
#define g_mime_part_get_type	DL_GMIME(g_mime_part_get_type)
#define g_mime_part_is_attachment	DL_GMIME(g_mime_part_is_attachment)
#define g_mime_part_new_with_type	DL_GMIME(g_mime_part_new_with_type)
#define g_mime_part_set_content	DL_GMIME(g_mime_part_set_content)
#define g_mime_part_set_content_encoding \
	DL_GMIME(g_mime_part_set_content_encoding)
#define g_mime_part_set_filename	DL_GMIME(g_mime_part_set_filename)
#define g_mime_signature_get_certificate \
	DL_GMIME(g_mime_signature_get_certificate)
#define g_mime_signature_get_status	DL_GMIME(g_mime_signature_get_status)
#define g_mime_signature_list_get_signature \
	DL_GMIME(g_mime_signature_list_get_signature)
#define g_mime_signature_list_length	DL_GMIME(g_mime_signature_list_length)
#define g_mime_stream_filter_add	DL_GMIME(g_mime_stream_filter_add)
#define g_mime_stream_filter_get_type	DL_GMIME(g_mime_stream_filter_get_type)
#define g_mime_stream_filter_new	DL_GMIME(g_mime_stream_filter_new)
#define g_mime_stream_flush	DL_GMIME(g_mime_stream_flush)
#define g_mime_stream_mem_get_byte_array \
	DL_GMIME(g_mime_stream_mem_get_byte_array)
#define g_mime_stream_mem_get_type	DL_GMIME(g_mime_stream_mem_get_type)
#define g_mime_stream_mem_new	DL_GMIME(g_mime_stream_mem_new)
#define g_mime_stream_mem_new_with_buffer \
	DL_GMIME(g_mime_stream_mem_new_with_buffer)
#define g_object_unref	DL_GMIME(g_object_unref)
#define g_type_check_instance_cast	DL_GMIME(g_type_check_instance_cast)
#define g_type_check_instance_is_a	DL_GMIME(g_type_check_instance_is_a)
#define g_utf8_get_char_validated	DL_GMIME(g_utf8_get_char_validated)
#define g_utf8_skip	DL_GMIME_VAR(g_utf8_skip)
#define gpgme_check_version_internal	DL_GPGME(gpgme_check_version_internal)
#define gpgme_data_new_from_mem	DL_GPGME(gpgme_data_new_from_mem)
#define gpgme_data_release	DL_GPGME(gpgme_data_release)
#define gpgme_get_key	DL_GPGME(gpgme_get_key)
#define gpgme_key_unref	DL_GPGME(gpgme_key_unref)
#define gpgme_new	DL_GPGME(gpgme_new)
#define gpgme_op_import	DL_GPGME(gpgme_op_import)
#define gpgme_op_import_result	DL_GPGME(gpgme_op_import_result)
#define gpgme_release	DL_GPGME(gpgme_release)
#define gpgme_set_engine_info	DL_GPGME(gpgme_set_engine_info)
#define gpgme_set_offline	DL_GPGME(gpgme_set_offline)
#define gpgme_set_protocol	DL_GPGME(gpgme_set_protocol)
#define gpgme_strerror	DL_GPGME(gpgme_strerror)
#define internet_address_get_name	DL_GMIME(internet_address_get_name)
#define internet_address_list_get_address \
	DL_GMIME(internet_address_list_get_address)
#define internet_address_list_length	DL_GMIME(internet_address_list_length)
#define internet_address_mailbox_get_addr \
	DL_GMIME(internet_address_mailbox_get_addr)
#define internet_address_mailbox_get_type \
	DL_GMIME(internet_address_mailbox_get_type)

#endif

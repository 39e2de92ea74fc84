/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ABI of include/uapi/linux/trace_mmap.h, spelled out here because the
 * guest programs are built once for both kernels, and the base's headers
 * have no such file.
 */
#ifndef FTX_TRACE_MMAP_ABI_H
#define FTX_TRACE_MMAP_ABI_H

#include <stdint.h>
#include <sys/ioctl.h>

struct trace_buffer_meta {
	uint32_t meta_page_size;
	uint32_t meta_struct_len;
	uint32_t subbuf_size;
	uint32_t nr_subbufs;
	struct {
		uint64_t lost_events;
		uint32_t id;
		uint32_t read;
	} reader;
	uint64_t flags;
	uint64_t entries;
	uint64_t overrun;
	uint64_t read;
	uint64_t reserved1;
	uint64_t reserved2;
};

#define TRACE_MMAP_IOCTL_GET_READER	_IO('R', 0x20)

/* a sub-buffer: 8 bytes of time stamp, 8 of commit, then the events */
#define SUBBUF_HDR	16

#endif

# SPDX-License-Identifier: GPL-2.0
# The shared timekeeper, timekeeperd/ppctime-timekeeperd, and a launch's
# side of it (timekeeperd_client.h), which ppctime-run links; what both
# know of the daemon's directory and socket (timekeeperd_socket.h) and
# whom they trust (timekeeperd_trust.h); the systemd units of the
# machine's daemon.  ppctime-run finds the daemon in its DAEMON_DIR
# (run/Rules.mk).

TIMEKEEPERD_CPPFLAGS = $(CONTRACT_CPPFLAGS) -I$(srcdir)
TIMEKEEPERD_SOCKET_OBJS = timekeeperd/timekeeperd_socket.o timekeeperd/timekeeperd_trust.o
TIMEKEEPERD_CLIENT_OBJS = timekeeperd/timekeeperd_client.o $(TIMEKEEPERD_SOCKET_OBJS)
$(eval $(call host_objects,timekeeperd,$(TIMEKEEPERD_CPPFLAGS)))

# The daemon's parts (daemon.h).
daemon_parts = ppctime-timekeeperd daemon_options daemon_listen daemon_keeper daemon_watch \
	launch_table
DAEMON_OBJS = $(daemon_parts:%=timekeeperd/%.o)
timekeeperd/ppctime-timekeeperd: $(DAEMON_OBJS) $(TIMEKEEPERD_SOCKET_OBJS) $(TIMEKEEPER_OBJ)
	$(quiet) LD $@
	$(Q)$(CC) $(HOST_CFLAGS) $(LDFLAGS) -pthread -o $@ $(filter %.o,$^)

timekeeperd_units = timekeeperd/ppctime-timekeeperd.service timekeeperd/ppctime-timekeeperd.socket
$(timekeeperd_units): timekeeperd/%: $(srcdir)/timekeeperd/%.in Makefile
	$(Q)$(MKDIR_P) $(@D)
	$(Q)$(SED) -e 's|@pkglibexecdir@|$(pkglibexecdir)|g' -e 's|@bindir@|$(bindir)|g' $< >$@

ALL += timekeeperd/ppctime-timekeeperd $(timekeeperd_units)
# The daemon runs, so it is not among INSTALL_HOST_LIBEXEC (mode 644); its
# units go where systemd looks for a package's (debian/rules sets
# /lib/systemd/system for Debian 12's debhelper).
systemdsystemunitdir = $(prefix)/lib/systemd/system
install-timekeeperd: installdirs all
	$(INSTALL_PROGRAM) timekeeperd/ppctime-timekeeperd $(DESTDIR)$(pkglibexecdir)
	$(MKDIR_P) $(DESTDIR)$(systemdsystemunitdir)
	$(INSTALL_DATA) $(timekeeperd_units) $(DESTDIR)$(systemdsystemunitdir)
uninstall-timekeeperd:
	rm -f $(DESTDIR)$(pkglibexecdir)/ppctime-timekeeperd \
		$(addprefix $(DESTDIR)$(systemdsystemunitdir)/,$(notdir $(timekeeperd_units)))
INSTALL_HOOKS += install-timekeeperd
UNINSTALL_HOOKS += uninstall-timekeeperd
.PHONY: install-timekeeperd uninstall-timekeeperd
CLEANFILES += timekeeperd/ppctime-timekeeperd $(DAEMON_OBJS) $(TIMEKEEPERD_CLIENT_OBJS) \
	$(timekeeperd_units)

# Shared by the TAP tests that need to know where pg_partmgr's launcher
# stands: a reload is in force once the launcher logs the interval it takes
# up and the time of its next run; after that time, with pg_partmgr.enabled
# off, no worker starts any more.
package PartmgrWorker;

use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Exporter 'import';

our @EXPORT = qw(reload_launcher wait_launcher_off);

# Append settings (which must set pg_partmgr.interval to $interval seconds)
# to $node's configuration, reload, wait until the launcher says it took
# them up, and return the time it gives for its next run.
sub reload_launcher
{
	my ($node, $settings, $interval) = @_;
	my $offset = -s $node->logfile;

	$node->append_conf('postgresql.conf', $settings);
	$node->reload;
	$node->wait_for_log(
		qr/pg_partmgr launcher: maintenance every $interval s, next run at/, $offset);
	my ($at) = slurp_file($node->logfile, $offset)
	  =~ /pg_partmgr launcher: maintenance every $interval s, next run at (.+)$/m;
	die "no next run time in the log after offset $offset" unless defined $at;
	return $at;
}

# With pg_partmgr.enabled off and $would_run from reload_launcher: true once
# that time has passed and no worker runs (false on timeout).
sub wait_launcher_off
{
	my ($node, $would_run) = @_;

	return $node->poll_query_until('postgres', qq{
		SELECT clock_timestamp() > '$would_run' AND count(*) = 0
		  FROM pg_stat_activity WHERE backend_type = 'pg_partmgr worker'});
}

1;

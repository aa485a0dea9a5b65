#
# A global unique constraint on a logical replication subscriber, its
# triggers enabled ALWAYS: the apply worker fires row triggers outside any
# statement of the executor, so each replicated row's key is entered at
# once rather than with a statement's batch.  Multi-row transactions
# replicated into several children get one entry per row; a replicated row
# whose key a local row of another child holds stops the apply with 23505,
# nothing of it applied, and it is applied once the local row is gone.
#
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $pub = PostgreSQL::Test::Cluster->new('publisher');
$pub->init(allows_streaming => 'logical');
$pub->start;

my $sub = PostgreSQL::Test::Cluster->new('subscriber');
$sub->init;
$sub->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_partmgr'
pg_partmgr.enabled = off
wal_retrieve_retry_interval = 200ms
});
$sub->start;

my $table = q{CREATE TABLE public.t (k bigint, created_at timestamptz NOT NULL)
	PARTITION BY RANGE (created_at)};
$pub->safe_psql('postgres', qq{
	$table;
	CREATE TABLE public.t_all PARTITION OF public.t
		FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
	ALTER TABLE public.t REPLICA IDENTITY FULL;
	ALTER TABLE public.t_all REPLICA IDENTITY FULL;
	CREATE PUBLICATION p FOR TABLE public.t WITH (publish_via_partition_root = true);
});
$sub->safe_psql('postgres', qq{
	CREATE EXTENSION pg_partmgr;
	$table;
	SELECT partmgr.create_parent('public.t', 'created_at', '1 day',
		p_start_partition => '2026-12-01', p_premake => 9);
	SELECT partmgr.create_global_unique('public.t', ARRAY['k']);
	ALTER TABLE public.t ENABLE ALWAYS TRIGGER t_k_gkey;
});
is($sub->safe_psql('postgres',
	q{SELECT state FROM partmgr.global_unique_constraints}),
	'always', 'the constraint fires for replicated rows');

my $connstr = $pub->connstr . ' dbname=postgres';
$sub->safe_psql('postgres', qq{
	CREATE SUBSCRIPTION s CONNECTION '$connstr' PUBLICATION p WITH (copy_data = false);
});
$sub->wait_for_subscription_sync($pub, 's');

# every row applied has its entry, naming its child, and no entry is left
# without its row
my $consistent = q{
	SELECT (SELECT count(*) FROM public.t) = (SELECT count(*) FROM public.t_k_gkey)
	   AND NOT EXISTS (SELECT 1 FROM public.t r WHERE NOT EXISTS
			(SELECT 1 FROM public.t_k_gkey e WHERE e.k = r.k AND e.child = r.tableoid))
};

$pub->safe_psql('postgres', q{
	INSERT INTO public.t SELECT g, '2026-12-01'::timestamptz + (g % 10) * interval '1 day'
	  FROM generate_series(1, 5000) g ORDER BY random();
});
$pub->wait_for_catchup('s');
is($sub->safe_psql('postgres', 'SELECT count(*) FROM public.t_k_gkey'), '5000',
	'a replicated INSERT of 5000 rows into 10 children: one entry per row');
is($sub->safe_psql('postgres', $consistent), 't', 'each naming the child holding its row');

$pub->safe_psql('postgres', q{
	UPDATE public.t SET k = k + 100000 WHERE k <= 100;
	DELETE FROM public.t WHERE k BETWEEN 101 AND 200;
});
$pub->wait_for_catchup('s');
is($sub->safe_psql('postgres', 'SELECT count(*) FROM public.t_k_gkey WHERE k > 100000'), '100',
	'replicated key changes move their entries');
is($sub->safe_psql('postgres', $consistent), 't', 'and replicated deletes remove theirs');

# a local row on the subscriber holds key 9999 in another child
$sub->safe_psql('postgres', q{INSERT INTO public.t VALUES (9999, '2026-12-09')});
my $offset = -s $sub->logfile;
$pub->safe_psql('postgres', q{
	BEGIN;
	INSERT INTO public.t SELECT g, '2026-12-02' FROM generate_series(9990, 9998) g;
	INSERT INTO public.t VALUES (9999, '2026-12-03');
	COMMIT;
});
ok($sub->wait_for_log(
	qr/duplicate key value violates global unique constraint "t_k_gkey"/, $offset),
	'a replicated row whose key a local row holds stops the apply with 23505');
is($sub->safe_psql('postgres', 'SELECT count(*) FROM public.t WHERE k BETWEEN 9990 AND 9998'), '0',
	'nothing of its transaction is applied');
is($sub->safe_psql('postgres', $consistent), 't', 'and the side table is as before');

$sub->safe_psql('postgres', q{DELETE FROM public.t WHERE k = 9999});
$pub->wait_for_catchup('s');
is($sub->safe_psql('postgres', q{SELECT count(*) FROM public.t WHERE k BETWEEN 9990 AND 9999}), '10',
	'once the local row is gone, the transaction is applied');
is($sub->safe_psql('postgres',
	q{SELECT child::text FROM public.t_k_gkey WHERE k = 9999}), 't_p20261203',
	"its key naming the replicated row's child");
is($sub->safe_psql('postgres', $consistent), 't', 'every entry in step');

$sub->stop;
$pub->stop;
done_testing();

-- Distributing Duka's schema on Citus (issue 36; docs/scale-out.md#distributing-by-organisation).
-- Run on the coordinator of an empty, migrated database (`npm run migrate` against it first),
-- after `CREATE EXTENSION citus;` and adding the workers (`SELECT citus_add_node(host, port);`).
-- Shaped and tested by partitioning PostgreSQL by organisation (vitest project postgres-by-org),
-- not run on Citus here. test/platform/citus-ddl.test.ts keeps this file in step with
-- server/src/db/table-scope.ts and with the migrated schema's foreign keys (a table comes after
-- every table it points at).
--
-- Global tables read with tenant rows, or pointed at by them: a copy on every node.
SELECT create_reference_table('users');
SELECT create_reference_table('plans');
SELECT create_reference_table('addo_medicines');
SELECT create_reference_table('addo_list_changes');
SELECT create_reference_table('addo_list_state');

-- Tenant tables: placed by organisation, each colocated with its organisation's row, so that
-- a shop's keys, joins and transactions stay on one node.
SELECT create_distributed_table('organisations', 'id');
SELECT create_distributed_table('stores', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('change_log', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('subscriptions', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('invoices', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('payments', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('subscription_events', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('ai_credit_usage', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('categories', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('products', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('product_stock', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('product_prices', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('product_packs', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('stock_adjustments', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('transactions', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('transaction_lines', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('transaction_payments', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('refunds', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('refund_lines', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('refund_parts', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('stock_takes', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('stock_take_lines', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('stock_take_counts', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('stock_transfers', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('shifts', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('shift_counts', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('collection_accounts', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('received_payments', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('payment_requests', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('fiscal_devices', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('fiscal_receipts', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('fiscal_z_reports', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('customers', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('credit_tabs', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('credit_payments', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('credit_allocations', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('credit_messages', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('credit_notes', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('notifications', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('suppliers', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('deliveries', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('delivery_lines', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('purchase_orders', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('purchase_order_lines', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('purchase_order_deliveries', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('supplier_payments', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('supplier_payment_allocations', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('expenses', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('notes', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('note_tags', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('uploads', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('reviews', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('events', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('event_deliveries', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('stock_quarantine', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('devices', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('sync_mutations', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('sync_conflicts', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('change_log_floor', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('report_exports', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('scheduled_reports', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('sales_daily', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('sales_daily_products', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('analytics_rollup_state', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('ai_conversations', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('ai_messages', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('agent_conversations', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('agent_turns', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('agent_actions', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('batches', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('batch_movements', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('recalls', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('prescriptions', 'org_id', colocate_with => 'organisations');
SELECT create_distributed_table('prescription_items', 'org_id', colocate_with => 'organisations');

-- The other global tables (refresh_tokens, otps, auth_counters, job_leases, outbox, audit_log,
-- idempotency_keys, rate_limits and Kysely's migration tables) stay on the coordinator as they are.

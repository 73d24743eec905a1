/**
 * The ordered list of migrations. Names are their file names; never rename or edit a migration
 * that has shipped: add a new one.
 */
import type { Migration } from 'kysely';
import * as core from './2026_11_21_0001_core.js';
import * as catalogue from './2026_11_21_0002_catalogue_and_sales_ledger.js';
import * as sales from './2026_11_21_0003_sales_customers_credit_notifications.js';
import * as productSearch from './2026_11_21_0004_product_search.js';
import * as sync from './2026_11_21_0005_sync.js';
import * as changeLogFloor from './2026_11_21_0006_change_log_floor.js';
import * as suppliersExpenses from './2026_11_21_0007_suppliers_expenses.js';
import * as notebookUploadsReviews from './2026_11_21_0008_notebook_uploads_reviews.js';
import * as reports from './2026_11_21_0009_reports.js';
import * as analyticsIndexes from './2026_11_21_0010_analytics_indexes.js';
import * as analyticsRollups from './2026_11_21_0011_analytics_rollups.js';
import * as refreshSuccessor from './2026_11_21_0012_refresh_token_successor.js';
import * as aiConversations from './2026_11_21_0013_ai_conversations.js';
import * as rateLimits from './2026_11_21_0014_rate_limits.js';
import * as medicineFields from './2026_11_23_0015_medicine_fields.js';
import * as addoList from './2026_11_23_0016_addo_list.js';
import * as productSearchGenericName from './2026_11_23_0017_product_search_generic_name.js';
import * as batches from './2026_11_23_0018_batches.js';
import * as prescriptions from './2026_11_23_0019_prescriptions.js';
import * as pharmacyPermission from './2026_11_23_0020_pharmacy_permission.js';
import * as smsDelivery from './2026_11_23_0021_sms_delivery.js';
import * as subscriptions from './2026_11_23_0022_subscriptions.js';
import * as managerPermissions from './2026_11_24_0023_manager_permissions.js';
import * as authCounters from './2026_11_24_0024_auth_counters.js';
import * as fiscal from './2026_11_24_0025_fiscal.js';
import * as storeFiscal from './2026_11_24_0026_store_fiscal.js';
import * as jobLeases from './2026_11_26_0028_job_leases.js';
import * as agentState from './2026_11_26_0029_agent_state.js';
import * as keysLedByOrg from './2026_11_26_0031_keys_led_by_org.js';
import * as shifts from './2026_11_27_0032_shifts.js';
import * as saleTenderAndTimes from './2026_11_27_0033_sale_tender_and_times.js';
import * as collectionAccounts from './2026_11_28_0034_collection_accounts.js';
import * as mobileMoneySales from './2026_11_28_0035_mobile_money_sales.js';
import * as saleLotsInLedger from './2026_11_29_0036_sale_lots_in_ledger.js';
import * as platformSettings from './2026_11_30_0037_platform_settings.js';
import * as productImageKeys from './2026_11_30_0038_product_image_keys.js';
import * as productUnits from './2026_12_01_0039_product_units.js';
import * as productPacks from './2026_12_01_0040_product_packs.js';
import * as salePayments from './2026_12_01_0041_sale_payments.js';
import * as scaleBarcodes from './2026_12_01_0042_scale_barcodes.js';
import * as rollupsInUnits from './2026_12_01_0043_rollups_in_units.js';
import * as saleRefunds from './2026_12_01_0044_sale_refunds.js';
import * as refundsInReports from './2026_12_01_0045_refunds_in_reports.js';
import * as stockTakes from './2026_12_01_0046_stock_takes.js';
import * as purchaseOrders from './2026_12_01_0047_purchase_orders.js';
import * as supplierLeadTimes from './2026_12_01_0048_supplier_lead_times.js';
import * as mirroredPayments from './2026_12_01_0049_mirrored_payments.js';
import * as productSearchWords from './2026_12_01_0050_product_search_words.js';
import * as fiscalQueueIndexes from './2026_12_01_0051_fiscal_queue_indexes.js';
import * as retiredDevices from './2026_12_01_0052_retired_devices.js';
import * as stockTransfers from './2026_12_01_0053_stock_transfers.js';
import * as orgOnEveryTenantRow from './2026_11_26_0030_org_on_every_tenant_row.js';

export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_core': core,
  '2026_11_21_0002_catalogue_and_sales_ledger': catalogue,
  '2026_11_21_0003_sales_customers_credit_notifications': sales,
  '2026_11_21_0004_product_search': productSearch,
  '2026_11_21_0005_sync': sync,
  '2026_11_21_0006_change_log_floor': changeLogFloor,
  '2026_11_21_0007_suppliers_expenses': suppliersExpenses,
  '2026_11_21_0008_notebook_uploads_reviews': notebookUploadsReviews,
  '2026_11_21_0009_reports': reports,
  '2026_11_21_0010_analytics_indexes': analyticsIndexes,
  '2026_11_21_0011_analytics_rollups': analyticsRollups,
  '2026_11_21_0012_refresh_token_successor': refreshSuccessor,
  '2026_11_21_0013_ai_conversations': aiConversations,
  '2026_11_21_0014_rate_limits': rateLimits,
  '2026_11_23_0015_medicine_fields': medicineFields,
  '2026_11_23_0016_addo_list': addoList,
  '2026_11_23_0017_product_search_generic_name': productSearchGenericName,
  '2026_11_23_0018_batches': batches,
  '2026_11_23_0019_prescriptions': prescriptions,
  '2026_11_23_0020_pharmacy_permission': pharmacyPermission,
  '2026_11_23_0021_sms_delivery': smsDelivery,
  '2026_11_23_0022_subscriptions': subscriptions,
  '2026_11_24_0023_manager_permissions': managerPermissions,
  '2026_11_24_0024_auth_counters': authCounters,
  '2026_11_24_0025_fiscal': fiscal,
  '2026_11_24_0026_store_fiscal': storeFiscal,
  '2026_11_26_0028_job_leases': jobLeases,
  '2026_11_26_0029_agent_state': agentState,
  '2026_11_26_0030_org_on_every_tenant_row': orgOnEveryTenantRow,
  '2026_11_26_0031_keys_led_by_org': keysLedByOrg,
  '2026_11_27_0032_shifts': shifts,
  '2026_11_27_0033_sale_tender_and_times': saleTenderAndTimes,
  '2026_11_28_0034_collection_accounts': collectionAccounts,
  '2026_11_28_0035_mobile_money_sales': mobileMoneySales,
  '2026_11_29_0036_sale_lots_in_ledger': saleLotsInLedger,
  '2026_11_30_0037_platform_settings': platformSettings,
  '2026_11_30_0038_product_image_keys': productImageKeys,
  '2026_12_01_0039_product_units': productUnits,
  '2026_12_01_0040_product_packs': productPacks,
  '2026_12_01_0041_sale_payments': salePayments,
  '2026_12_01_0042_scale_barcodes': scaleBarcodes,
  '2026_12_01_0043_rollups_in_units': rollupsInUnits,
  '2026_12_01_0044_sale_refunds': saleRefunds,
  '2026_12_01_0045_refunds_in_reports': refundsInReports,
  '2026_12_01_0046_stock_takes': stockTakes,
  '2026_12_01_0047_purchase_orders': purchaseOrders,
  '2026_12_01_0048_supplier_lead_times': supplierLeadTimes,
  '2026_12_01_0049_mirrored_payments': mirroredPayments,
  '2026_12_01_0050_product_search_words': productSearchWords,
  '2026_12_01_0051_fiscal_queue_indexes': fiscalQueueIndexes,
  '2026_12_01_0052_retired_devices': retiredDevices,
  '2026_12_01_0053_stock_transfers': stockTransfers,
};

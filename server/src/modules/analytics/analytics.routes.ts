import {
  AnalyticsOverview,
  AnalyticsPaymentMix,
  AnalyticsQuery,
  AnalyticsSummary,
  AnalyticsTopProducts,
  AnalyticsTrend,
  CashflowReport,
  CustomersReport,
  DashboardReport,
  Envelope,
  OverviewQuery,
  PageMeta,
  ProductsReport,
  ProductsReportQuery,
  SalesReport,
  TopProductsQuery,
} from '@duka/shared';
import type { z } from 'zod';
import { defineRoute, jsonResponse } from '../../lib/route.js';

const tags = ['Analytics'];
const SCOPE =
  "Covers every store of the organisation unless `store_id` names one. Dates are local days in the organisation's time zone " +
  '(default: the last 30 days, today included). Revenue counts `paid` and `credit` sales at their total (VAT included, after discount); ' +
  'refunded and voided sales are left out and counted separately; a sale refunded in part counts less what its refunds gave back, which counts with the refunds. Profit is net of VAT at the cost price in force at each sale.';

const get = <Q extends z.ZodObject, R extends z.ZodType>(
  operationId: string,
  path: string,
  summary: string,
  query: Q,
  response: R,
  description = '',
) =>
  defineRoute('owner', {
    method: 'get',
    path,
    operationId,
    errors: ['NOT_FOUND'],
    tags,
    summary,
    description: `${SCOPE}${description ? ` ${description}` : ''}`,
    request: { query },
    responses: { 200: jsonResponse(Envelope(response), summary) },
  });

export const overview = get(
  'getAnalyticsOverview',
  '/analytics/overview',
  'KPIs, daily revenue trend, payment mix and top 5 products in one answer',
  OverviewQuery,
  AnalyticsOverview,
  '`sections` picks the parts; the others are absent.',
);
export const summary = get(
  'getAnalyticsSummary',
  '/analytics/summary',
  'Revenue, sales count, average ticket, profit, items sold, refunds and voids',
  AnalyticsQuery,
  AnalyticsSummary,
);
export const trend = get(
  'getRevenueTrend',
  '/analytics/trend',
  'Revenue and sales count per local day, zero days included',
  AnalyticsQuery,
  AnalyticsTrend,
);
export const paymentMix = get('getPaymentMix', '/analytics/payment-mix', 'Revenue by payment method', AnalyticsQuery, AnalyticsPaymentMix);
export const topProducts = get(
  'getTopProducts',
  '/analytics/top-products',
  'Best-selling products by revenue',
  TopProductsQuery,
  AnalyticsTopProducts,
);
export const sales = get(
  'getSalesBreakdown',
  '/analytics/sales',
  'Sales by local day, store, cashier and payment method',
  AnalyticsQuery,
  SalesReport,
);
export const customers = get(
  'getCustomerAnalytics',
  '/analytics/customers',
  'New and returning customers, segments, best customers and credit owed',
  AnalyticsQuery,
  CustomersReport,
);
export const cashflow = get(
  'getCashflow',
  '/analytics/cashflow',
  'Money in (takings by method, credit payments) and out (refunds, expenses, supplier payments), net, by local day',
  AnalyticsQuery,
  CashflowReport,
  'Credit sales count as money in when they are paid, not when sold.',
);
export const dashboard = get(
  'getDashboard',
  '/analytics/dashboard',
  'Today against yesterday and the same weekday last week',
  AnalyticsQuery,
  DashboardReport,
  '`date_to` (default today) is the day shown as today.',
);

export const products = defineRoute('owner', {
  method: 'get',
  path: '/analytics/products',
  operationId: 'getProductAnalytics',
  errors: ['NOT_FOUND'],
  tags,
  summary: 'Per product: quantity, revenue, cost, profit, margin and days of stock cover',
  description: `${SCOPE} Lists active products and any product sold in the range, paged. Stock cover = current stock ÷ average daily quantity sold over the range.`,
  request: { query: ProductsReportQuery },
  responses: { 200: jsonResponse(Envelope(ProductsReport, PageMeta), 'Products, paged') },
});

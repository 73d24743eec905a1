/** Answers whose schemas @duka/shared exports without a type of the same name. */
import type { ReportType } from '@duka/shared';

export interface ReportTypeInfo {
  type: ReportType;
  name: string;
  description: string;
  columns: string[];
}
export interface AiCredits {
  used: number;
  allocated: number;
  remaining: number;
  month: string;
  percentage: number;
}
export interface TopProduct {
  product_id: string;
  name: string;
  qty_sold: number;
  revenue: number;
  profit: number;
}

/** Demo library: the current remote work policy (the canonical answer to most demo questions). */
export const REMOTE_WORK_POLICY_V3 = `# Remote Work Policy

Version 3.0 · Owner: People Operations · Effective 1 March 2025 · Supersedes version 2.1

## 1. Purpose

This policy sets out when and how employees of Northwind Analytics may work away from the office.
It applies to all permanent and fixed-term employees. Contractors follow the terms of their contract.

## 2. Eligibility and limits

Employees who have completed their probation period may work remotely for up to **three days per
week**. Teams that run an on-call rotation agree their own office days with their manager.
Remote work is a working arrangement, not a contractual right, and may be paused during
onboarding or a performance plan.

### 2.1 Core hours

Everyone is available between 10:00 and 15:00 local office time on working days, whether they
work from home or from the office.

### 2.2 Working from another country

Working from another country is allowed for up to **20 working days per calendar year**, after
approval by People Operations a fortnight in advance. Tax and immigration rules of the
destination country apply; some countries are excluded (see the intranet list).

## 3. Equipment and expenses

Northwind provides a laptop and a monitor. Each eligible employee may claim a one-off home office
allowance of **EUR 600** for a desk, chair or headset, and a monthly internet allowance of EUR 25.
Claims go through the expense system with receipts.

## 4. Security

Company data is accessed only on company devices through the VPN. Public Wi-Fi may be used only
with the VPN switched on. Printed confidential documents are not taken home.

## 5. How to apply

Agree your remote schedule with your manager and record it in the HR portal. Changes apply from
the next Monday.
`;

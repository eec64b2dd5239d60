/**
 * Demo library: the previous version of the remote work policy, superseded by version 3.0. Most
 * of its wording survived into 3.0 (as in real policy revisions); the figures did not: two remote
 * days instead of three, EUR 300 instead of EUR 600, no working from another country.
 */
export const REMOTE_WORK_POLICY_V2 = `# Remote Work Policy

Version 2.1 · Owner: People Operations · Effective 1 June 2022 · Superseded by version 3.0

## 1. Purpose

This policy sets out when and how employees of Northwind Analytics may work away from the office.
It applies to all permanent employees.

## 2. Eligibility and limits

Employees who have completed their probation period may work remotely for up to **two days per
week**, with their manager's approval. Remote work is not available during the first six months.

### 2.1 Working from another country

Working from another country is **not permitted**. Employees travelling abroad take annual leave.

## 3. Equipment and expenses

Northwind provides a laptop. Each eligible employee may claim a one-off home office allowance of
**EUR 300** for a desk or chair. Internet costs are not reimbursed.

## 4. Security

Use the VPN for all company systems. Do not use public Wi-Fi for company work.
`;

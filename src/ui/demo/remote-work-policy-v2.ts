/** Demo library: an older version of the remote work policy, superseded by version 3.0. */
export const REMOTE_WORK_POLICY_V2 = `# Remote Work Policy

Version 2.1 · Owner: People Operations · Effective 1 June 2022 · Superseded by version 3.0

## 1. Purpose

This policy describes remote work at Northwind Analytics for permanent employees.

## 2. Eligibility and limits

After six months of service, employees may work remotely for up to **two days per week**, with
their manager's approval. Remote work is not available during the first six months.

### 2.1 Working from another country

Working from another country is **not permitted**. Employees travelling abroad take annual leave.

## 3. Equipment and expenses

Employees may claim a one-off home office allowance of **EUR 300**. Internet costs are not
reimbursed.

## 4. Security

Use the VPN for all company systems. Do not use public Wi-Fi for company work.
`;

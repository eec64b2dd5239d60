/** Demo library: an unrelated current policy, so retrieval has something to rank below. */
export const TRAVEL_EXPENSES_POLICY = `# Travel and Expenses Policy

Version 1.4 · Owner: Finance · Effective 1 January 2024

## 1. Booking travel

Book flights and trains through the travel desk at least 14 days before departure. Economy class
is the standard for flights under six hours.

## 2. Daily allowances

Meals during business travel are covered up to EUR 60 per day within Europe and EUR 80 per day
elsewhere. Alcohol is not reimbursed.

## 3. Submitting claims

Submit expense claims within 30 days with itemised receipts. Claims older than 90 days are
rejected. Your manager approves claims up to EUR 1,000; Finance approves larger claims.

## 4. Mileage

Business use of a private car is reimbursed at EUR 0.30 per kilometre. Commuting to your usual
office is not business travel.
`;

/** Demo library: an informal blog post whose claims contradict the current policy. */
export const BLOG_FULLY_REMOTE = `# Why we are going fully remote

*Posted on the Northwind engineering blog by a team lead · January 2025*

Big news from our team: from next month **everyone can work remotely five days a week**, and the
office becomes optional. We think the results speak for themselves — fewer commutes, more focus.

## Work from anywhere

You can work from any country you like, for as long as you like. Pack your laptop and go; nobody
needs to approve it.

## What about equipment?

Expense whatever you need for your home office. In our experience, a good chair pays for itself.

*Opinions are the author's own. Check the HR portal for the official rules.*
`;

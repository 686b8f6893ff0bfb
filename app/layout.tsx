import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SkipLink } from "@/components/SkipLink";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Custodian", template: "%s · Custodian" },
  description: "The evidence custodian for agent transcripts that get compacted.",
};

// Every page reads live data.
export const dynamic = "force-dynamic";

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SkipLink />
        {children}
      </body>
    </html>
  );
}

# frozen_string_literal: true

require_relative "spec_helper"

RSpec.describe "the sandbox helper" do
  it "gives the example an app of its own, made on first use" do
    expect(@jiguang_sandbox_apps).to be_nil
    expect(sandbox.app["app_key"]).to eq(sandbox.app_key)
    expect(sandbox).to be(sandbox)
    other = new_sandbox_app
    expect(other.app_key).not_to eq(sandbox.app_key)
    expect(@jiguang_sandbox_apps).to eq([sandbox, other])
    expect(sandbox.sms_base_url).to eq(JiguangSandbox::Sandbox.shared.url)
  end

  it "waits for the code the application under test texts" do
    Vendor.call(sandbox, "POST", "/v1/codes", { mobile: "13800138000", temp_id: 1 })
    text = sandbox.next_message(mobile: "13800138000", kind: "code")
    expect(text["content"]).to include(text["code"])
    expect { sandbox.next_message(mobile: "13800138000", kind: "code", timeout: 0.2) }
      .to raise_error(JiguangSandbox::NothingArrived, /after seq #{text['seq']} within 0.2 s/)
  end

  context "after an example that passed" do
    app_key = nil
    master_secret = nil

    it "(the example)" do
      app_key = sandbox.app_key
      master_secret = sandbox.master_secret
      sandbox.arm_fault(path: "/v1/codes", code: 50_019)
    end

    it "its app is gone" do
      gone = JiguangSandbox::SandboxApp.new(sandbox.base_url, app_key, master_secret)
      expect(gone.faults).to eq([]) # a new app by the same name
    end
  end
end
